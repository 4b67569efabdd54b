//! The SMTP side of e-mail: the transport to the relay given by `--smtp`,
//! and the sending of one plain-text mail with its unsubscribe link.

use super::model::with_unsubscribe;
use lettre::message::{Mailbox, SinglePart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use std::time::Duration;

/// Sends the mails.
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    /// How often deadlines are looked at.
    pub sweep: Duration,
}

impl Mailer {
    /// A mailer for `url` (`smtp://[user:pass@]host[:port]`, plain SMTP to a
    /// relay such as a local MTA), sending as `from`.
    pub fn new(url: &str, from: &str, sweep: Duration) -> Result<Mailer, String> {
        let rest = url
            .strip_prefix("smtp://")
            .ok_or_else(|| format!("--smtp {url:?}: write smtp://[user:pass@]host[:port]"))?;
        let (auth, hostport) = match rest.rsplit_once('@') {
            Some((auth, hp)) => (Some(auth), hp),
            None => (None, rest),
        };
        let hostport = hostport.trim_end_matches('/');
        let (host, port) = match hostport.rsplit_once(':') {
            Some((h, p)) => (
                h,
                p.parse::<u16>()
                    .map_err(|_| format!("--smtp {url:?}: the port {p:?} is not a number"))?,
            ),
            None => (hostport, 25),
        };
        if host.is_empty() {
            return Err(format!("--smtp {url:?}: no host"));
        }
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host).port(port);
        if let Some(auth) = auth {
            let (user, pass) = auth.split_once(':').unwrap_or((auth, ""));
            builder = builder.credentials(Credentials::new(user.into(), pass.into()));
        }
        let from = from
            .parse::<Mailbox>()
            .map_err(|e| format!("--mail-from {from:?}: {e}"))?;
        Ok(Mailer {
            transport: builder.build(),
            from,
            sweep,
        })
    }

    /// Sends a security mail (a reset link, a change of address): plain
    /// text, without an unsubscribe link, since an account's safety does
    /// not wait on its subscription.
    pub(crate) async fn send_security(
        &self,
        to: &str,
        subject: &str,
        body: &str,
    ) -> Result<(), String> {
        let to: Mailbox = to.parse().map_err(|e| format!("address {to:?}: {e}"))?;
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(subject)
            .singlepart(SinglePart::plain(body.to_string()))
            .map_err(|e| e.to_string())?;
        self.transport
            .send(message)
            .await
            .map_err(|e| e.to_string())?;
        Ok(())
    }

    /// Sends `body` (plain text) to `to` with an unsubscribe link.
    pub(super) async fn send(
        &self,
        to: &str,
        subject: &str,
        body: &str,
        unsubscribe: &str,
    ) -> Result<(), String> {
        let to: Mailbox = to.parse().map_err(|e| format!("address {to:?}: {e}"))?;
        let text = with_unsubscribe(body, unsubscribe);
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(subject)
            .raw_header(lettre::message::header::HeaderValue::new(
                lettre::message::header::HeaderName::new_from_ascii_str("List-Unsubscribe"),
                format!("<{unsubscribe}>"),
            ))
            // lettre picks the transfer encoding the text needs.
            .singlepart(SinglePart::plain(text))
            .map_err(|e| e.to_string())?;
        self.transport
            .send(message)
            .await
            .map_err(|e| e.to_string())?;
        Ok(())
    }
}
