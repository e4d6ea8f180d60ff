//! Processes under `/proc`: a process tree, its memory (PSS and RSS from
//! `smaps_rollup`), the fields of `stat` the benches need. Linux only.

use std::collections::BTreeMap;

/// Memory summed over a process tree.
#[derive(Debug, Default)]
pub struct TreeMemory {
    pub pss_kb: u64,
    pub rss_kb: u64,
    pub by_program: BTreeMap<String, u64>,
    pub processes: usize,
    pub unreadable: usize,
}

pub fn tree_memory(root: u32) -> TreeMemory {
    let mut memory = TreeMemory::default();
    for pid in descendants_and_self(root) {
        memory.processes += 1;
        match smaps_rollup(pid) {
            Some((pss, rss)) => {
                memory.pss_kb += pss;
                memory.rss_kb += rss;
                *memory.by_program.entry(program_name(pid)).or_default() += pss;
            }
            None => memory.unreadable += 1,
        }
    }
    memory
}

/// `Pss:` and `Rss:` of `/proc/<pid>/smaps_rollup`, in kB.
pub fn smaps_rollup(pid: u32) -> Option<(u64, u64)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).ok()?;
    parse_rollup(&text)
}

fn parse_rollup(text: &str) -> Option<(u64, u64)> {
    let field = |name: &str| {
        text.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            (key.trim() == name).then(|| value.trim().trim_end_matches("kB").trim().parse().ok())?
        })
    };
    Some((field("Pss")?, field("Rss")?))
}

/// argv[0]'s file name (`WebKitWebProcess`), else the (truncated) `comm`.
pub fn program_name(pid: u32) -> String {
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    let argv0 = cmdline.split(|byte| *byte == 0).next().unwrap_or_default();
    let argv0 = String::from_utf8_lossy(argv0);
    match argv0.rsplit('/').next() {
        Some(name) if !name.is_empty() => name.to_owned(),
        _ => std::fs::read_to_string(format!("/proc/{pid}/comm"))
            .map_or_else(|_| format!("pid {pid}"), |comm| comm.trim().to_owned()),
    }
}

/// `root` and every process below it, through `/proc/<pid>/task/*/children`.
pub fn descendants_and_self(root: u32) -> Vec<u32> {
    let mut seen = vec![root];
    let mut next = 0;
    while let Some(&pid) = seen.get(next) {
        next += 1;
        for child in children_of(pid) {
            if !seen.contains(&child) {
                seen.push(child);
            }
        }
    }
    seen.retain(|pid| stat_of(*pid).is_some_and(|stat| stat.alive()));
    seen
}

fn children_of(pid: u32) -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    tasks
        .flatten()
        .filter_map(|task| std::fs::read_to_string(task.path().join("children")).ok())
        .flat_map(|children| {
            children
                .split_whitespace()
                .filter_map(|pid| pid.parse().ok())
                .collect::<Vec<u32>>()
        })
        .collect()
}

/// The fields of `/proc/<pid>/stat` this module needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stat {
    pub state: char,
    pub group: i64,
    /// Clock ticks after boot: tells a process from a later one with its reused pid.
    pub start: u64,
}

impl Stat {
    /// Running or sleeping, not a zombie waiting for a reaper.
    pub fn alive(self) -> bool {
        !matches!(self.state, 'Z' | 'X' | 'x')
    }
}

pub fn stat_of(pid: u32) -> Option<Stat> {
    parse_stat(&std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
}

fn parse_stat(text: &str) -> Option<Stat> {
    // After `pid (comm)`: field 3 is the state, 5 the process group, 22 the start time.
    let fields: Vec<&str> = text.rsplit_once(')')?.1.split_whitespace().collect();
    Some(Stat {
        state: fields.first()?.chars().next()?,
        group: fields.get(2)?.parse().ok()?,
        start: fields.get(19)?.parse().ok()?,
    })
}

/// Every live process in the given process group (a scan of `/proc`).
pub fn group_members(group: i64) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| stat_of(*pid).is_some_and(|stat| stat.alive() && stat.group == group))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rollup_fields() {
        let text = "55d0a0a00000-7ffd6c1f6000 ---p 00000000 00:00 0    [rollup]\n\
                    Rss:              123456 kB\n\
                    Pss:               65432 kB\n\
                    Pss_Anon:          40000 kB\n\
                    Pss_File:          25432 kB\n";
        assert_eq!(parse_rollup(text), Some((65432, 123456)));
        assert_eq!(parse_rollup("Rss: 1 kB\n"), None);
    }

    #[test]
    fn stat_fields() {
        let text = "4242 (WebKit Web) Proc) S 1 4240 4240 0 -1 4194560 100 0 0 0 5 3 0 0 20 0 \
                    12 0 987654 1000 100 18446744073709551615";
        let stat = parse_stat(text);
        assert_eq!(
            stat,
            Some(Stat {
                state: 'S',
                group: 4240,
                start: 987654
            })
        );
        assert!(stat.is_some_and(Stat::alive));
        assert!(
            parse_stat("1 (x) Z 0 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5")
                .is_some_and(|s| !s.alive())
        );
    }

    #[test]
    fn the_current_process_is_in_its_own_tree() {
        let own = std::process::id();
        assert!(descendants_and_self(own).contains(&own));
        assert!(smaps_rollup(own).is_some_and(|(pss, rss)| pss > 0 && rss >= pss));
        let memory = tree_memory(own);
        assert!(memory.processes >= 1 && memory.pss_kb > 0);
    }
}
