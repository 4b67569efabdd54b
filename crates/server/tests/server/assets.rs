//! The web board's files: content-hashed names cached for good, the page
//! itself checked on every visit, and bodies compressed when asked.

use crate::common::start;
use reqwest::header;

#[tokio::test]
async fn hashed_assets_are_immutable_and_compressed() {
    let server = start().await;
    let base = format!("http://{}", server.addr);
    let http = reqwest::Client::new();

    let page = http.get(format!("{base}/lobby")).send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert_eq!(page.headers()[header::CACHE_CONTROL], "no-cache");
    let html = page.text().await.unwrap();
    if !html.contains("<script") {
        eprintln!("the web board was not built (no node): nothing to check");
        return;
    }
    let script = html
        .split("src=\"/assets/")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("the page links its script");
    assert!(
        script.starts_with("app.") && script.len() == "app.123456789abc.js".len(),
        "the script's name is content-hashed: {script}"
    );
    let url = format!("{base}/assets/{script}");

    let plain = http.get(&url).send().await.unwrap();
    assert_eq!(plain.status(), 200);
    assert_eq!(
        plain.headers()[header::CACHE_CONTROL],
        "public, max-age=31536000, immutable"
    );
    assert!(plain.headers().get(header::CONTENT_ENCODING).is_none());
    let full = plain.bytes().await.unwrap().len();

    for (accept, encoding) in [("gzip", "gzip"), ("br", "br"), ("gzip, deflate, br", "br")] {
        let r = http
            .get(&url)
            .header(header::ACCEPT_ENCODING, accept)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        assert_eq!(r.headers()[header::CONTENT_ENCODING], encoding, "{accept}");
        assert_eq!(
            r.headers()[header::CACHE_CONTROL],
            "public, max-age=31536000, immutable"
        );
        let sent = r.bytes().await.unwrap().len();
        assert!(sent * 2 < full, "{encoding}: {sent} bytes of {full}");
    }

    // The page is compressed too, and the old unhashed name is gone.
    let r = http
        .get(format!("{base}/"))
        .header(header::ACCEPT_ENCODING, "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()[header::CONTENT_ENCODING], "gzip");
    let r = http
        .get(format!("{base}/assets/app.js"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 404);
}
