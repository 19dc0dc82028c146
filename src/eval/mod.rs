//! The static evaluation: fitted tables indexed by pattern codes
//! ([`tables`], [`code`]), the threat term ([`threat`]) and their fitters
//! ([`fit`], [`threat_fit`]), and the formula the tables were made by
//! ([`formula`]), whose numbers a tuner may change.
//!
//! Every empty cell has, for each side, a [pattern code](code): the four
//! line patterns a stone there would make, as an unordered combination. Each
//! side's tables give a code's worth when that side moves next (`mover`) and
//! when it waits (`waiter`); the board keeps both sums over the empty cells
//! up to date move by move, and the evaluation is the side to move's mover
//! sum minus the opponent's waiter sum ([`evaluate`]). The same codes index
//! the move policy (`attack`, `defence`) that orders the search's moves.
//!
//! This layer sits below the board: it knows patterns by name, not boards.

mod adam;
pub mod code;
pub mod fit;
pub mod formula;
pub mod tables;
pub mod threat;
pub mod threat_fit;

/// Largest magnitude a static evaluation takes, well below the mate scores.
pub const EVAL_LIMIT: i32 = 20_000;

/// The position's value for the side to move, in the search's score units,
/// from the table sums ([`tables`]): `mover`, the side to move's sum of its
/// mover entries, and `waiter`, the opponent's sum of its waiter entries.
#[inline]
pub fn evaluate(mover: i32, waiter: i32) -> i32 {
    ((mover - waiter) / tables::UNIT).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// The little-endian `i32` words after the magic of a tables file, if
/// `bytes` are `magic` followed by exactly `count` words (`what` names the
/// kind of file in the error).
fn file_words<'a>(
    bytes: &'a [u8],
    magic: &[u8; 4],
    count: usize,
    what: &str,
) -> Result<impl Iterator<Item = i32> + 'a, String> {
    let expected = magic.len() + count * 4;
    if bytes.len() != expected || &bytes[..4] != magic {
        return Err(format!(
            "not a {what} file: {} bytes, expected {expected} starting with {magic:?}",
            bytes.len()
        ));
    }
    Ok(bytes[4..]
        .chunks_exact(4)
        .map(|w| i32::from_le_bytes([w[0], w[1], w[2], w[3]])))
}

/// The bytes of a tables file: `magic`, then `words` little-endian.
fn file_bytes<'a>(magic: &[u8; 4], words: impl IntoIterator<Item = &'a i32>) -> Vec<u8> {
    let mut bytes = magic.to_vec();
    for v in words {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    bytes
}
