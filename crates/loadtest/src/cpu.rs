//! CPU time from Linux `/proc`: the server's and the load generator's own.

use crate::{CLIENT_THREADS, ServerCpu};

/// CPU seconds (user + system) in a `/proc/.../stat` line.
fn stat_cpu_seconds(stat: &str) -> Option<f64> {
    // Fields after the command name (which may hold spaces) in parentheses:
    // state is the 3rd field, utime the 14th, stime the 15th.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    // USER_HZ is 100 on every Linux ABI Rust supports.
    Some((utime + stime) as f64 / 100.0)
}

/// CPU seconds used so far by process `pid`.
fn process_cpu(pid: u32) -> Option<f64> {
    stat_cpu_seconds(&std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
}

/// CPU seconds used so far by this process's threads, split into
/// (named [`CLIENT_THREADS`], all others).
fn own_threads_cpu() -> Option<(f64, f64)> {
    let (mut client, mut other) = (0.0, 0.0);
    for entry in std::fs::read_dir("/proc/self/task").ok()?.flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue; // the thread ended
        };
        let cpu = stat_cpu_seconds(&stat).unwrap_or(0.0);
        let name = stat.split_once('(').map(|(_, r)| r).unwrap_or_default();
        if name.starts_with(CLIENT_THREADS) {
            client += cpu;
        } else {
            other += cpu;
        }
    }
    Some((client, other))
}

/// A reading of (server, load generator) CPU seconds.
pub fn cpu_reading(source: &ServerCpu) -> (Option<f64>, Option<f64>) {
    match source {
        ServerCpu::Unknown => (None, process_cpu(std::process::id())),
        ServerCpu::Process(pid) => (process_cpu(*pid), process_cpu(std::process::id())),
        ServerCpu::ThisProcess => match own_threads_cpu() {
            Some((client, server)) => (Some(server), Some(client)),
            None => (None, None),
        },
    }
}
