//! One page's WebSocket: the whole view on connecting, then every update; the umpire's
//! actions the other way. Whatever a page sends is bounded and checked, and a page that stops
//! reading is let go rather than waited for.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket};
use serde::Serialize;
use tokio::sync::broadcast::error::RecvError;

use super::shared::{Role, Shared, Slot};
use super::umpire::{self, Request};

/// Messages a page may get wrong before it is let go.
const MAX_MISTAKES: u32 = 5;

/// How long a page may take to take a message.
const SEND_LIMIT: Duration = Duration::from_secs(10);

/// How often a quiet connection is pinged, so that dead ones are noticed.
const PING_EVERY: Duration = Duration::from_secs(20);

/// What the server says to one page.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
enum Reply<'a> {
    Hello { role: &'a str, table: &'a str },
    Said { text: String },
    Refused { text: String },
}

fn reply(reply: &Reply) -> Message {
    Message::Text(serde_json::to_string(reply).unwrap_or_default().into())
}

/// Serve one page until it goes.
pub async fn serve(
    mut socket: WebSocket,
    shared: Arc<Shared>,
    role: Role,
    peer: SocketAddr,
    _slot: Slot,
) {
    tracing::debug!("a page connected from {peer} ({})", role.as_str());
    match talk(&mut socket, &shared, role, peer).await {
        Ok(()) => tracing::debug!("a page from {peer} left"),
        Err(why) => tracing::info!("closed the connection of a page from {peer}: {why}"),
    }
    let _ = socket.send(Message::Close(None)).await;
}

async fn send(socket: &mut WebSocket, message: Message) -> Result<(), String> {
    match tokio::time::timeout(SEND_LIMIT, socket.send(message)).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(format!("it went away ({e})")),
        Err(_) => Err("it stopped reading".into()),
    }
}

async fn talk(
    socket: &mut WebSocket,
    shared: &Shared,
    role: Role,
    peer: SocketAddr,
) -> Result<(), String> {
    let feed = &shared.feed;
    // Subscribe first: nothing published between the snapshot and the subscription is lost.
    let mut updates = feed.subscribe();
    let name = feed.name();
    let hello = Reply::Hello {
        role: role.as_str(),
        table: &name,
    };
    send(socket, reply(&hello)).await?;
    let mut seq = 0;
    if let Some(snapshot) = feed.snapshot() {
        seq = snapshot.seq;
        send(
            socket,
            Message::Text(snapshot.full_message().as_ref().into()),
        )
        .await?;
    }
    let mut mistakes = 0;
    let mut ping = tokio::time::interval(PING_EVERY);
    ping.tick().await;
    loop {
        tokio::select! {
            update = updates.recv() => match update {
                Ok(update) if update.seq > seq => {
                    seq = update.seq;
                    send(socket, Message::Text(update.message.as_ref().into())).await?;
                }
                Ok(_) => {}
                Err(RecvError::Lagged(_)) => {
                    // Behind: the whole view instead of the backlog.
                    if let Some(snapshot) = feed.snapshot() {
                        seq = snapshot.seq;
                        send(socket, Message::Text(snapshot.full_message().as_ref().into())).await?;
                    }
                }
                Err(RecvError::Closed) => return Ok(()),
            },
            incoming = socket.recv() => match incoming {
                None | Some(Ok(Message::Close(_))) => return Ok(()),
                Some(Err(e)) => return Err(format!("its message was refused ({e})")),
                Some(Ok(Message::Text(text))) => {
                    let answer = answer(shared, role, peer, text.as_str()).await;
                    if let Reply::Refused { text } = &answer {
                        mistakes += 1;
                        shared.refusals.log(peer, &format!("a page's request: {text}"));
                        if mistakes > MAX_MISTAKES {
                            send(socket, reply(&answer)).await?;
                            return Err(format!("{mistakes} requests refused"));
                        }
                    }
                    send(socket, reply(&answer)).await?;
                }
                Some(Ok(Message::Binary(_))) => {
                    mistakes += 1;
                    let refused = Reply::Refused { text: "pages send text".into() };
                    send(socket, reply(&refused)).await?;
                    if mistakes > MAX_MISTAKES {
                        return Err(format!("{mistakes} requests refused"));
                    }
                }
                Some(Ok(_)) => {}
            },
            _ = ping.tick() => send(socket, Message::Ping(Vec::new().into())).await?,
        }
    }
}

/// The answer to a page's message.
async fn answer<'a>(shared: &Shared, role: Role, peer: SocketAddr, text: &str) -> Reply<'a> {
    let request: Request = match serde_json::from_str(text) {
        Ok(request) => request,
        Err(e) => {
            return Reply::Refused {
                text: format!("not understood ({e})"),
            };
        }
    };
    if matches!(request, Request::Ping) {
        return Reply::Said {
            text: "pong".into(),
        };
    }
    if role != Role::Umpire {
        return Reply::Refused {
            text: "only the umpire's link may do that".into(),
        };
    }
    tracing::info!("the umpire ({peer}) asks: {request:?}");
    match umpire::act(shared, request).await {
        Ok(text) => Reply::Said { text },
        Err(text) => Reply::Refused { text },
    }
}
