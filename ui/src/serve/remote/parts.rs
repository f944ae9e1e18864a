//! What the table sends remote pages, cut into parts a WebSocket broker passes at once.
//!
//! Decision: Debian 12's mosquitto (2.0.11) passes a WebSocket message of up to 4 kB at once
//! but one larger only at about one every 100 ms (measured through its WebSockets listener to
//! chromium: 30 messages of 4 kB in 6 ms, of 6 kB in 3.1 s, of 50 kB in 37 s) — too slow for
//! a table's updates and pictures. So every message to pages goes in parts of at most
//! [`PART`] bytes, each with an 8-byte head: the message's number (u32), the part's place and
//! the count of parts (u16 each, big-endian). A page puts them together again and drops a
//! message whose parts did not all come (a broker may drop what a slow page cannot take).

/// The most bytes of a message in one part: with its head, MQTT's and the WebSocket's, under
/// 4 kB.
pub const PART: usize = 3800;

/// The bytes of a part's head.
pub const HEAD: usize = 8;

/// `message`, numbered `id`, in parts.
pub fn parts(id: u32, message: &[u8]) -> Vec<Vec<u8>> {
    let chunks: Vec<&[u8]> = if message.is_empty() {
        vec![&[]]
    } else {
        message.chunks(PART).collect()
    };
    let count = u16::try_from(chunks.len()).unwrap_or(u16::MAX);
    chunks
        .into_iter()
        .take(usize::from(count))
        .enumerate()
        .map(|(index, chunk)| {
            let mut part = Vec::with_capacity(HEAD + chunk.len());
            part.extend_from_slice(&id.to_be_bytes());
            part.extend_from_slice(&(index as u16).to_be_bytes());
            part.extend_from_slice(&count.to_be_bytes());
            part.extend_from_slice(chunk);
            part
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Put parts together again, as the page does (remote.js).
    fn whole(parts: &[Vec<u8>]) -> Option<Vec<u8>> {
        let count = u16::from_be_bytes([parts.first()?[6], parts.first()?[7]]);
        (parts.len() == usize::from(count))
            .then(|| parts.iter().flat_map(|p| p[HEAD..].to_vec()).collect())
    }

    #[test]
    fn a_message_goes_in_parts_under_4_kb_and_comes_back_whole() {
        let message: Vec<u8> = (0..100_000u32).map(|i| (i % 251) as u8).collect();
        let cut = parts(7, &message);
        assert_eq!(cut.len(), 100_000usize.div_ceil(PART));
        assert!(cut.iter().all(|p| p.len() <= HEAD + PART));
        assert!(
            cut.iter()
                .enumerate()
                .all(|(i, p)| p[..4] == 7u32.to_be_bytes()
                    && usize::from(u16::from_be_bytes([p[4], p[5]])) == i)
        );
        assert_eq!(whole(&cut), Some(message));
        assert_eq!(whole(&parts(8, b"")), Some(Vec::new()));
        assert_eq!(whole(&parts(9, b"{}")), Some(b"{}".to_vec()));
    }
}
