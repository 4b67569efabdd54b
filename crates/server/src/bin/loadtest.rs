//! `thaiboard-loadtest`: plays many simultaneous games against a running server (work in progress).

fn main() {
    eprintln!("thaiboard-loadtest: not written yet");
    std::process::exit(2);
}
