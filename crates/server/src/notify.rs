//! "Your move" notifications for asynchronous play: when the decision passes to a
//! person's seat that asked for it, the server POSTs a small JSON to the seat's webhook
//! and/or e-mails it through the configured SMTP server. Delivery is best effort, off
//! the request path: a failure is logged and never changes the game. Webhooks reach
//! public internet addresses only, unless the operator allows private ones
//! ([`crate::webhook`]).

use std::sync::Arc;
use std::time::Duration;

use engine::{Seat, ToMove};
use lettre::message::Mailbox;
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use serde_json::json;

use crate::config::SmtpConfig;
use crate::error::ApiError;
use crate::hub::{Hub, Live};
use crate::webhook::{WebhookClient, WebhookError};

/// A notification to send.
#[derive(Clone, Debug)]
pub(crate) struct Due {
    game: String,
    seat: Seat,
    version: u64,
    email: Option<String>,
    webhook: Option<String>,
}

/// The notification owed now that `live`'s decision changed hands, if any.
pub(crate) fn due(live: &Live) -> Option<Due> {
    let ToMove::Seat(seat) = live.session.to_move() else {
        return None;
    };
    let row = live.seats.get(usize::from(seat.0))?;
    if row.kind != "person" || row.resigned {
        return None;
    }
    if row.notify_email.is_none() && row.notify_webhook.is_none() {
        return None;
    }
    Some(Due {
        game: live.row.id.clone(),
        seat,
        version: live.session.version(),
        email: row.notify_email.clone(),
        webhook: row.notify_webhook.clone(),
    })
}

/// Checks an e-mail address.
pub(crate) fn check_email(address: &str) -> Result<(), ApiError> {
    address
        .parse::<Mailbox>()
        .map(|_| ())
        .map_err(|e| ApiError::malformed(format!("not an e-mail address: {e}")))
}

/// Checks a webhook URL's form: http or https, at most 2,000 characters, no control
/// characters, no user name or password ([`crate::webhook::check_url`]). Where it leads
/// is checked by [`check_webhook_destination`].
pub(crate) fn check_webhook(url: &str) -> Result<(), ApiError> {
    crate::webhook::check_url(url)
        .map(drop)
        .map_err(|e| ApiError::malformed(e.to_string()))
}

/// Checks a webhook URL's form and that it leads to public internet addresses only,
/// looking its host up now ([`crate::webhook::check_destination`]); with
/// `allow_private` (`--allow-private-webhooks`) loopback, private and link-local
/// addresses pass too. Delivery checks the addresses again when it connects.
pub(crate) async fn check_webhook_destination(
    url: &str,
    allow_private: bool,
) -> Result<(), ApiError> {
    crate::webhook::check_destination(url, allow_private)
        .await
        .map_err(|e| ApiError::malformed(e.to_string()))
}

/// Sends `due` in the background.
pub(crate) fn send(hub: &Arc<Hub>, due: Due) {
    let link = format!("{}/play/{}", hub.config.base_url(), due.game);
    let smtp = hub.config.smtp.clone();
    let allow_private = hub.config.allow_private_webhooks;
    tokio::spawn(async move {
        if let Some(url) = &due.webhook
            && let Err(e) = post_webhook(url, allow_private, &due, &link).await
        {
            // The host only: a webhook's path or query may hold the receiver's secret.
            let host = crate::webhook::host_of(url);
            tracing::warn!(game = %due.game, seat = due.seat.0, %host, error = %e, "webhook failed");
        }
        if let (Some(address), Some(smtp)) = (&due.email, &smtp)
            && let Err(e) = send_email(smtp, address, &due, &link).await
        {
            tracing::warn!(game = %due.game, seat = due.seat.0, error = %e, "e-mail failed");
        }
    });
}

async fn post_webhook(
    url: &str,
    allow_private: bool,
    due: &Due,
    link: &str,
) -> Result<(), WebhookError> {
    let body = json!({
        "event": "your_move",
        "game": due.game,
        "seat": due.seat.0,
        "version": due.version,
        "url": link,
        "text": format!("{}: it is your move in game {} ({link})", due.seat, due.game),
    });
    WebhookClient::shared(allow_private)?
        .post_json(url, &body)
        .await
}

async fn send_email(smtp: &SmtpConfig, to: &str, due: &Due, link: &str) -> Result<(), String> {
    let message = Message::builder()
        .from(smtp.from.parse().map_err(|e| format!("bad From address: {e}"))?)
        .to(to.parse().map_err(|e| format!("bad address: {e}"))?)
        .subject(format!("hexwar: your move in game {}", due.game))
        .body(format!(
            "It is your move ({}) in game {}.\n\nOpen your invite link to play; the game is at {link}\n",
            due.seat, due.game
        ))
        .map_err(|e| e.to_string())?;
    let builder = if smtp.plain {
        AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&smtp.host)
    } else {
        AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(&smtp.host)
            .map_err(|e| e.to_string())?
    };
    let mut builder = builder
        .port(smtp.port)
        .timeout(Some(Duration::from_secs(20)));
    if let Some((user, password)) = &smtp.credentials {
        builder = builder.credentials(Credentials::new(user.clone(), password.clone()));
    }
    builder
        .build()
        .send(message)
        .await
        .map(|_| ())
        .map_err(|e| e.to_string())
}
