# Sourced by lib.sh (the db_bench runs) and eval/ycsb_run.sh (the YCSB
# runs): what the machine did during one run, so that a run slowed by
# something outside it can be told from one slowed by its own work. Why: this VM is shared. Two
# identical closed-loop 4-region loads of stock RocksDB here ran at 122.7
# and 198.3 K ops/s, the slow one with 28% more CPU per operation and no
# steal time (docs/results.md).
#
# machine_begin, then the run, then machine_end FILE writes FILE (JSON):
#   cpu_probe_ms    wall time of a fixed single-threaded CPU job (SHA-256
#                   of 128 MiB of zeros) just before the run; a slower CPU
#                   (host contention, frequency) makes it larger
#   seconds         the run's wall time
#   run_cores       the run's own CPU seconds per second (the shell's
#                   children between begin and end: the ycsb_vlsm or
#                   db_bench_vlsm process)
#   machine_cores   CPU busy on the whole machine, per second (/proc/stat:
#                   user, nice, system, irq, softirq)
#   other_cores     machine_cores - run_cores: everything else that ran;
#                   good to about 0.1 core, and it can dip below zero: the
#                   kernel samples /proc/stat per tick but keeps a
#                   process's own CPU time exactly
#   iowait_cores, steal_cores   /proc/stat's iowait and steal, per second
# Runs in the calling shell (no subshell around it), because bash's `times`
# only counts the children that shell itself waited for.

machine_stat_now() {  # sets machine_stat: busy iowait steal jiffies
  local _cpu user nice system idle iowait irq softirq steal _rest
  read -r _cpu user nice system idle iowait irq softirq steal _rest < /proc/stat
  machine_stat="$((user + nice + system + irq + softirq)) $iowait $steal"
}

machine_children_cpu_now() {  # sets machine_children_s: children's CPU s
  local file; file=$(mktemp)
  times > "$file"  # line 2: children's user and system time, "1m2.345s"
  machine_children_s=$(awk 'NR == 2 {
    s = 0
    for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); s += t[1] * 60 + t[2] }
    print s }' "$file")
  rm -f "$file"
}

machine_begin() {
  local t0; t0=$(date +%s%N)
  head -c 128M /dev/zero | sha256sum > /dev/null
  machine_probe_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  machine_children_cpu_now; machine_children0=$machine_children_s
  machine_stat_now; machine_stat0=$machine_stat
  machine_t0=$(date +%s%N)
}

machine_end() {  # FILE
  local t1; t1=$(date +%s%N)
  machine_stat_now
  machine_children_cpu_now
  awk -v probe="$machine_probe_ms" -v ns="$((t1 - machine_t0))" \
      -v hz="$(getconf CLK_TCK)" -v c0="$machine_children0" -v c1="$machine_children_s" \
      -v before="$machine_stat0" -v after="$machine_stat" 'BEGIN {
    split(before, a, " "); split(after, b, " ")
    s = ns / 1e9; if (s <= 0) s = 1e-9
    run = (c1 - c0) / s; busy = (b[1] - a[1]) / hz / s
    printf "{\"cpu_probe_ms\": %d, \"seconds\": %.3f, \"run_cores\": %.3f, ", probe, s, run
    printf "\"machine_cores\": %.3f, \"other_cores\": %.3f, ", busy, busy - run
    printf "\"iowait_cores\": %.3f, \"steal_cores\": %.3f}\n", \
      (b[2] - a[2]) / hz / s, (b[3] - a[3]) / hz / s
  }' > "$1"
}
