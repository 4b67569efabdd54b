//! Behind a reverse proxy (`--trust-proxy CIDR`): the client's address is
//! read from `X-Forwarded-For` only when the connection comes from a
//! trusted proxy, so that no client can choose the address the limits
//! count it under. The header is read from its right end (the entry the
//! nearest proxy added) leftwards, past every trusted address: the first
//! other address is the client. Without a trusted proxy, or without the
//! header, the client is the connection's peer.

use axum::http::HeaderMap;
use ipnet::IpNet;
use std::net::IpAddr;

/// The header proxies add the client's address to.
pub const FORWARDED_FOR: &str = "x-forwarded-for";

/// Whether `ip` is one of the trusted proxies.
pub fn is_trusted(trusted: &[IpNet], ip: IpAddr) -> bool {
    trusted.iter().any(|net| net.contains(&ip))
}

/// The client's address for a request from `peer` with `headers`.
pub fn client_ip(peer: IpAddr, headers: &HeaderMap, trusted: &[IpNet]) -> IpAddr {
    if !is_trusted(trusted, peer) {
        return peer;
    }
    let mut client = peer;
    let entries = headers
        .get_all(FORWARDED_FOR)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .collect::<Vec<_>>();
    for entry in entries.into_iter().rev() {
        let Ok(ip) = entry.trim().parse::<IpAddr>() else {
            // Garbage where an address should be: trust nothing further left.
            break;
        };
        client = ip;
        if !is_trusted(trusted, ip) {
            break;
        }
    }
    client
}

/// Reads a `--trust-proxy` value: a CIDR (`10.0.0.0/8`) or one address.
pub fn parse_cidr(text: &str) -> Result<IpNet, String> {
    text.parse::<IpNet>()
        .or_else(|_| text.parse::<IpAddr>().map(IpNet::from))
        .map_err(|_| format!("{text:?} is not an address or a CIDR range such as 10.0.0.0/8"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(xff: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in xff {
            h.append(FORWARDED_FOR, v.parse().unwrap());
        }
        h
    }

    #[test]
    fn the_forwarded_address_counts_only_from_a_trusted_proxy() {
        let trusted = vec![
            parse_cidr("10.0.0.0/8").unwrap(),
            parse_cidr("127.0.0.1").unwrap(),
        ];
        let proxy: IpAddr = [10, 1, 2, 3].into();
        let stranger: IpAddr = [198, 51, 100, 9].into();
        let h = headers(&["203.0.113.7"]);
        assert_eq!(
            client_ip(proxy, &h, &trusted),
            IpAddr::from([203, 0, 113, 7])
        );
        assert_eq!(
            client_ip(stranger, &h, &trusted),
            stranger,
            "a client cannot choose its address"
        );
        // A spoofed entry on the left, the real client added by the proxy on the right.
        let h = headers(&["1.1.1.1, 203.0.113.7"]);
        assert_eq!(
            client_ip(proxy, &h, &trusted),
            IpAddr::from([203, 0, 113, 7])
        );
        // Through two trusted proxies.
        let h = headers(&["203.0.113.7", "10.9.9.9"]);
        assert_eq!(
            client_ip(proxy, &h, &trusted),
            IpAddr::from([203, 0, 113, 7])
        );
        // No header, or garbage: the proxy itself.
        assert_eq!(client_ip(proxy, &HeaderMap::new(), &trusted), proxy);
        assert_eq!(client_ip(proxy, &headers(&["nonsense"]), &trusted), proxy);
        assert!(parse_cidr("not-a-net").unwrap_err().contains("CIDR"));
    }
}
