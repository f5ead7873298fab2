//! `oware tablebase build` under `mpirun` (feature `mpi`): the distributed
//! builder of `oware_tablebase::dist` over MPI. Every rank runs this with
//! the same arguments; rank 0 prints the progress lines and, at the end,
//! every rank's peak memory and bytes sent.

use std::time::Instant;

use anyhow::{anyhow, bail, Result};
use mpi::datatype::{Partition, PartitionMut};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Count;
use oware_tablebase::dist::{
    build_to_dir_distributed, private_bytes, Comm, DistLevelReport, DistOptions,
};
use oware_tablebase::{index, LevelStatus};

use super::tablebase::BuildArgs;

/// True when the process was started by an MPI launcher (Open MPI's
/// `mpirun`, or a PMI/PMIx one such as Slurm's `srun`).
pub fn launched() -> bool {
    ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"]
        .iter()
        .any(|v| std::env::var_os(v).is_some())
}

struct MpiComm {
    world: SimpleCommunicator,
}

fn count(n: usize) -> Count {
    Count::try_from(n).expect("an MPI exchange of more than 2^31 - 1 words")
}

impl Comm for MpiComm {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn size(&self) -> usize {
        self.world.size() as usize
    }

    fn barrier(&self) {
        self.world.barrier();
    }

    fn all_gather(&self, mine: &[u64]) -> Vec<u64> {
        let mut all = vec![0u64; mine.len() * self.size()];
        self.world.all_gather_into(mine, &mut all[..]);
        all
    }

    fn exchange(&self, out: Vec<Vec<u64>>) -> (Vec<u64>, Vec<usize>) {
        let send_counts: Vec<Count> = out.iter().map(|v| count(v.len())).collect();
        let mut recv_counts = vec![0 as Count; self.size()];
        self.world
            .all_to_all_into(&send_counts[..], &mut recv_counts[..]);
        let displs = |counts: &[Count]| -> Vec<Count> {
            counts
                .iter()
                .scan(0usize, |acc, &c| {
                    let d = *acc;
                    *acc += c as usize;
                    Some(count(d))
                })
                .collect()
        };
        let (send_displs, recv_displs) = (displs(&send_counts), displs(&recv_counts));
        let send = out.concat();
        drop(out);
        let mut recv = vec![0u64; recv_counts.iter().map(|&c| c as usize).sum()];
        {
            let sp = Partition::new(&send[..], &send_counts[..], &send_displs[..]);
            let mut rp = PartitionMut::new(&mut recv[..], &recv_counts[..], &recv_displs[..]);
            self.world.all_to_all_varcount_into(&sp, &mut rp);
        }
        (recv, recv_counts.iter().map(|&c| c as usize).collect())
    }
}

/// Peak resident memory of this process (Linux `VmHWM`: what getrusage
/// reports as `ru_maxrss`), in bytes.
fn peak_rss() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("VmHWM:"))?.to_owned();
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .map_or(0, |kb| kb * 1024)
}

/// CPU time of this process so far (user and system, Linux `/proc`), in
/// milliseconds.
fn cpu_millis() -> u64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            // Fields after the command name (which may hold spaces): state is
            // the first, utime the 12th, stime the 13th; in clock ticks of
            // 10 ms (USER_HZ is 100 on Linux).
            let rest = s.rsplit_once(')')?.1.to_owned();
            let f: Vec<&str> = rest.split_whitespace().collect();
            Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
        })
        .map_or(0, |ticks| ticks * 10)
}

const MB: f64 = 1e6;

pub fn build(args: BuildArgs) -> Result<()> {
    if args.max_seeds > oware_tablebase::MAX_BUILD_SEEDS {
        bail!(
            "--max-seeds {}: at most {} is supported",
            args.max_seeds,
            oware_tablebase::MAX_BUILD_SEEDS
        );
    }
    let universe = mpi::initialize_with_threading(mpi::Threading::Funneled)
        .map(|(u, _)| u)
        .ok_or_else(|| anyhow!("MPI could not be initialised"))?;
    let comm = MpiComm {
        world: universe.world(),
    };
    let (rank, ranks) = (comm.rank(), comm.size());
    let started = Instant::now();
    let mut on_level = |r: &DistLevelReport| {
        if rank != 0 {
            return;
        }
        match r.status {
            LevelStatus::Kept => eprintln!("{:>2} seeds: valid file kept", r.seeds),
            LevelStatus::Built if !r.partitioned => eprintln!(
                "{:>2} seeds: {} positions built by rank 0 in {:.1} s",
                r.seeds, r.boards, r.seconds
            ),
            LevelStatus::Built => eprintln!(
                "{:>2} seeds: {} positions built on {ranks} ranks in {:.1} s; {} rounds, {} visits and {} exit look-ups between ranks, {} bytes exchanged ({:.2} a position){}",
                r.seeds,
                r.boards,
                r.seconds,
                r.rounds,
                r.messages,
                r.exit_requests,
                r.bytes,
                r.bytes as f64 / r.boards as f64,
                if r.spilled { "; rank 0 spilled its working arrays" } else { "" }
            ),
        }
    };
    let options = DistOptions {
        memory_budget: args.memory_budget_mb.map(|mb| mb.saturating_mul(1_000_000)),
    };
    let result = build_to_dir_distributed(
        &args.dir,
        args.max_seeds,
        &comm,
        options,
        &|_| {},
        &mut on_level,
    );
    let summary = match result {
        Ok(s) => s,
        Err(e) => {
            // The other ranks wait in a collective: end them all.
            eprintln!(
                "error: rank {rank}: building tables in {}: {e}",
                args.dir.display()
            );
            comm.world.abort(1);
        }
    };
    let stats = comm.all_gather(&[
        peak_rss(),
        summary.peak_private_bytes.or(private_bytes()).unwrap_or(0),
        summary.bytes_sent,
        cpu_millis(),
    ]);
    if rank == 0 {
        for (r, s) in stats.chunks(4).enumerate() {
            eprintln!(
                "rank {r}: peak RSS {:.1} MB, peak private {:.1} MB, sent {} bytes, CPU {:.1} s",
                s[0] as f64 / MB,
                s[1] as f64 / MB,
                s[2],
                s[3] as f64 / 1000.0
            );
        }
        println!(
            "tables for 0..={} seeds ({} positions) in {} after {:.1} s on {ranks} ranks",
            args.max_seeds,
            index::count_up_to(args.max_seeds),
            args.dir.display(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
