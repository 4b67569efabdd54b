//! The reader streams: it reads games from a source that is produced as it
//! is read (never held whole), and bounds what it keeps of huge lines and
//! comments.

use records::{ErrorKind, MAX_COMMENT, Reader, read_one};
use std::io::{BufRead, Read};

/// A source that repeats one record `left` times, made on demand.
struct Repeat {
    record: Vec<u8>,
    pos: usize,
    left: usize,
}

impl Read for Repeat {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(buf.len());
        buf[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Repeat {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.pos == self.record.len() && self.left > 0 {
            self.left -= 1;
            self.pos = 0;
        }
        if self.left == 0 && self.pos == self.record.len() {
            return Ok(&[]);
        }
        Ok(&self.record[self.pos..])
    }

    fn consume(&mut self, n: usize) {
        self.pos += n;
    }
}

#[test]
fn reads_a_generated_stream_game_by_game() {
    let record =
        b"[Event \"s\"]\n[Variant \"makruk\"]\n\n1. e4 e5 2. Md2 {c} (2. Nd2) Me7 1/2-1/2\n\n"
            .to_vec();
    let pos = record.len();
    let n = 5000;
    let src = Repeat {
        record: record.clone(),
        pos,
        left: n,
    };
    let mut reader = Reader::new(src);
    let mut count = 0;
    let mut last_bytes = 0;
    while let Some(g) = reader.read_game() {
        let g = g.unwrap();
        assert_eq!(g.moves.nodes.len(), 4);
        count += 1;
        // The reader has not run ahead of the game it returned by more
        // than a line.
        let bytes = reader.bytes_read();
        assert!(bytes <= (count * record.len() + 64) as u64);
        assert!(bytes > last_bytes);
        last_bytes = bytes;
    }
    assert_eq!(count, n);
    assert_eq!(reader.games_read(), n);
}

#[test]
fn huge_comments_are_cut_and_huge_lines_read_in_pieces() {
    let big = "word ".repeat(MAX_COMMENT / 3);
    let g = read_one(&format!("1. e4 {{{big}}} e5 *")).unwrap();
    let c = &g.moves.nodes[0].comments[0];
    assert!(c.len() <= MAX_COMMENT && c.len() > MAX_COMMENT / 2);
    assert_eq!(g.moves.nodes.len(), 2);
    // A line over the piece size (1 MiB) of legal moves: read in pieces.
    let moves = "Nd2 Nd7 Nb1 Nb8 ".repeat(80_000);
    let g = read_one(&format!("{moves}*")).unwrap();
    assert_eq!(g.moves.nodes.len(), 320_000);
    // Cut inside a move, the pieces are two texts: an error, no panic.
    let e = read_one(&format!("   {moves}*")).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::BadMove(_)), "{e}");
    assert_eq!((e.line, e.column, e.text.as_str()), (1, 1_048_576, "N"));
}
