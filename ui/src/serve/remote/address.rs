//! Where remote players reach the table: the broker as the host and as the pages reach it, the
//! remote page's address, and each seat's link to it.

use std::io::{self, Write};

use live::Token;
use live::mqtt::{Broker, topic_name};
use live::orders::{Seat, Seats};

use crate::args::RemoteArgs;

/// Where remote players reach the table.
#[derive(Clone, Debug)]
pub struct Remote {
    /// The broker, as the host reaches it.
    pub broker: Broker,
    /// The broker, as pages reach it: `ws://…` or `wss://…`.
    pub pages_broker: String,
    /// Where the remote player's page is: the links add the broker, table and token to it.
    pub page: String,
    /// The seats: a token a side, and the umpire's.
    pub seats: Seats,
    /// The user name and password pages give the broker, if it asks for them.
    pub player_login: Option<(String, String)>,
}

impl Remote {
    /// The remote table the command line asks for, with a seat for each of `sides` and the
    /// umpire (each with the token given, or a new one); `None` without `--remote`.
    pub fn from_args(args: &RemoteArgs, sides: &[String]) -> Option<Remote> {
        let given = args.side_token.iter().cloned().collect();
        Some(Remote {
            broker: args.remote.clone()?,
            pages_broker: args.pages_broker()?,
            page: args.page()?,
            seats: Seats::new(sides, &given, args.remote_umpire_token.clone()),
            player_login: args.player_login.clone(),
        })
    }

    /// The table's name in the topics.
    pub fn table(&self, name: &str) -> String {
        self.broker
            .table
            .clone()
            .unwrap_or_else(|| topic_name(name))
    }

    /// Each seat's link: its page with the broker, table and token after `#` (a fragment never
    /// reaches the server that hosts the page).
    pub fn links(&self, name: &str) -> Vec<(Seat, String)> {
        let table = self.table(name);
        let login = match &self.player_login {
            Some((user, password)) => {
                format!("&user={}&password={}", encode(user), encode(password))
            }
            None => String::new(),
        };
        let link = |token: &Token| {
            format!(
                "{}#broker={}&table={}&token={token}{login}",
                self.page,
                encode(&self.pages_broker),
                encode(&table)
            )
        };
        let sides =
            (self.seats.sides()).map(|(side, token)| (Seat::Side(side.into()), link(token)));
        sides
            .chain([(Seat::Umpire, link(self.seats.umpire()))])
            .collect()
    }

    /// Say `links` (this remote table's, as [`Remote::links`] makes them) to the host, to send
    /// to the players: a line a seat, `remote <side>: <link>`.
    pub fn say_links(&self, links: &[(Seat, String)], out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "remote players reach the table through {} (a link a side, one for the umpire):",
            self.broker
        )?;
        for (seat, link) in links {
            writeln!(out, "remote {}: {link}", seat.side().unwrap_or("umpire"))?;
        }
        Ok(())
    }
}

/// `text` for a link's fragment: all but letters, digits and `-._~` percent-encoded.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_seat_has_a_link_carrying_the_broker_the_table_and_its_token_after_the_hash() {
        let args = RemoteArgs {
            remote: Some("mqtt://club.example/Table 7".parse().expect("a broker")),
            player_login: Some(("players".into(), "a&b".into())),
            side_token: vec![(
                "red".into(),
                Token::parse("red-secret-0123456789").expect("a token"),
            )],
            ..RemoteArgs::default()
        };
        let remote = Remote::from_args(&args, &["red".into(), "blue".into()]).expect("remote");
        let links = remote.links("ignored");
        assert_eq!(links.len(), 3);
        let (seat, red) = &links
            .iter()
            .find(|(s, _)| s.side() == Some("red"))
            .expect("red");
        assert_eq!(seat, &Seat::Side("red".into()));
        assert_eq!(
            red,
            "http://club.example:9001/vedette/remote.html#broker=ws%3A%2F%2Fclub.example%3A9001\
             &table=Table-7&token=red-secret-0123456789&user=players&password=a%26b"
        );
        assert!(links.iter().any(|(s, _)| *s == Seat::Umpire));
    }
}
