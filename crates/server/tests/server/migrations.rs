//! Migrations over a database of an older release: the database is made by
//! the migrations up to the one tested, filled as that release filled it,
//! and then the server starts on it (running the rest). On SQLite, or on
//! PostgreSQL in a schema of its own when `THAIBOARD_TEST_DATABASE_URL`
//! names one (as CI does).

use crate::common::{Client, test_config, test_database, unique};
use argon2::PasswordHasher;
use reqwest::StatusCode;
use serde_json::json;
use sqlx::migrate::Migrator;
use thaiboard_server::Server;

/// A database with the migrations before `first_new` only: its URL, and
/// on PostgreSQL the schema to drop afterwards.
async fn database_before(first_new: &str) -> (String, Option<String>) {
    let (url, dir) = test_database();
    let before = dir.join("migrations-before");
    std::fs::create_dir_all(&before).unwrap();
    let all = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    for entry in std::fs::read_dir(all).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if name.as_str() < first_new {
            std::fs::copy(&path, before.join(&name)).unwrap();
        }
    }
    let migrator = Migrator::new(before.as_path()).await.unwrap();
    if url.starts_with("postgres") {
        let schema = unique("migration_").to_lowercase();
        let admin = sqlx::PgPool::connect(&url).await.unwrap();
        sqlx::query(&format!("CREATE SCHEMA {schema}"))
            .execute(&admin)
            .await
            .unwrap();
        admin.close().await;
        let sep = if url.contains('?') { '&' } else { '?' };
        let url = format!("{url}{sep}options=-c%20search_path%3D{schema}");
        let pool = sqlx::PgPool::connect(&url).await.unwrap();
        migrator.run(&pool).await.unwrap();
        pool.close().await;
        (url, Some(schema))
    } else {
        let opts = url
            .parse::<sqlx::sqlite::SqliteConnectOptions>()
            .unwrap()
            .create_if_missing(true);
        let pool = sqlx::SqlitePool::connect_with(opts).await.unwrap();
        migrator.run(&pool).await.unwrap();
        pool.close().await;
        (url, None)
    }
}

/// Runs `sql` with `binds` (text) on the database at `url`.
async fn exec(url: &str, sql: &str, binds: &[&str]) {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    let mut q = sqlx::query(sql);
    for b in binds {
        q = q.bind(b.to_string());
    }
    q.execute(&pool).await.unwrap();
    pool.close().await;
}

/// Logs in `name` with `password` from a new browser.
async fn login(server: &Server, name: &str, password: &str) -> StatusCode {
    let c = Client::guest(server).await;
    c.post(
        "/api/login",
        json!({ "username": name, "password": password }),
    )
    .await
    .0
}

#[tokio::test]
async fn names_and_devices_0021_over_a_database_of_0020() {
    let (url, schema) = database_before("0021").await;
    // Accounts of the older release: one whose name a later one looks like
    // ("a1ice" and "alice" share a skeleton), which 0021's unique
    // skeletons must not fail on.
    let hash = argon2::Argon2::default()
        .hash_password(
            b"correct horse battery",
            &argon2::password_hash::SaltString::encode_b64(b"migration-salt-1").unwrap(),
        )
        .unwrap()
        .to_string();
    let tag = unique("").to_lowercase();
    let tag = &tag[..6];
    let (alice, a1ice) = (format!("alice{tag}"), format!("a1ice{tag}"));
    for (id, name) in [(format!("m1{tag}"), &alice), (format!("m2{tag}"), &a1ice)] {
        exec(
            &url,
            "INSERT INTO users (id, username, username_key, password_hash, is_guest, created_at) \
             VALUES ($1, $2, $3, $4, 0, 1)",
            &[&id, name, &name.to_lowercase(), &hash],
        )
        .await;
    }
    let server = Server::start(test_config(&url)).await.unwrap();
    // Both old accounts log in, the one without a skeleton too.
    assert_eq!(login(&server, &alice, "correct horse battery").await, 200);
    assert_eq!(login(&server, &a1ice, "correct horse battery").await, 200);
    // The backfill gave the first its skeleton: a look-alike is refused.
    let c = Client::guest(&server).await;
    let (s, e) = c
        .post(
            "/api/register",
            json!({ "username": format!("al_ice{tag}"), "password": "correct horse battery" }),
        )
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    // login_devices works: the browser that logged in is known, so others'
    // guesses at the name do not lock it out.
    let mut owner = Client::guest(&server).await;
    let (s, v) = owner
        .post(
            "/api/login",
            json!({ "username": alice, "password": "correct horse battery" }),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    owner.csrf = v["csrf"].as_str().unwrap().to_string();
    let stranger = Client::guest(&server).await;
    for i in 0..8 {
        stranger
            .post(
                "/api/login",
                json!({ "username": alice, "password": format!("wrong {i}") }),
            )
            .await;
    }
    let (s, e) = owner
        .post(
            "/api/login",
            json!({ "username": alice, "password": "correct horse battery" }),
        )
        .await;
    assert_eq!(s, 200, "the known browser: {e}");
    drop(server);
    if let Some(schema) = schema {
        let base = url.split("?options=").next().unwrap().to_string();
        let base = base.split("&options=").next().unwrap();
        exec(base, &format!("DROP SCHEMA {schema} CASCADE"), &[]).await;
    }
}
