//! The address a table's link gives: the one a phone on the same network reaches this machine
//! by. A server listening on every interface (`0.0.0.0`) has no single address of its own, so
//! the one the machine's default route leaves from is taken: asking the system which address a
//! UDP socket "connected" to an outside address would use sends no packet.

use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};

/// TEST-NET-1 (RFC 5737): an outside address that is never really reached.
const OUTSIDE: SocketAddr = SocketAddr::new(IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1)), 9);

/// The host a link to a server listening on `listening` should name.
pub fn advertised_host(listening: &SocketAddr) -> String {
    let ip = listening.ip();
    if !ip.is_unspecified() {
        return host_of(ip);
    }
    match lan_address() {
        Some(ip) => host_of(ip),
        None => {
            tracing::warn!(
                "no network address found for the table's link: it names 127.0.0.1, which only this machine reaches (give --host)"
            );
            "127.0.0.1".into()
        }
    }
}

fn host_of(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => format!("[{v6}]"),
    }
}

/// This machine's address on its network, if it has one besides loopback.
fn lan_address() -> Option<IpAddr> {
    let socket = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0)).ok()?;
    socket.connect(OUTSIDE).ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_loopback() && !ip.is_unspecified()).then_some(ip)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_on_one_address_is_linked_by_it() {
        let on = SocketAddr::from(([192, 168, 1, 20], 8765));
        assert_eq!(advertised_host(&on), "192.168.1.20");
        let v6 = SocketAddr::new(IpAddr::V6(std::net::Ipv6Addr::LOCALHOST), 80);
        assert_eq!(advertised_host(&v6), "[::1]");
    }

    #[test]
    fn a_server_on_every_interface_is_linked_by_a_real_address() {
        let host = advertised_host(&SocketAddr::from(([0, 0, 0, 0], 8765)));
        let ip: IpAddr = host.parse().expect("an IPv4 address");
        assert!(!ip.is_unspecified(), "{host}");
    }
}
