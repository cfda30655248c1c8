#!/usr/bin/python3
"""PNG figures from ycsb_vlsm reports (needs Debian's python3-matplotlib).

  plot.py timeseries out/loada.json [out/loada-vlsm.json ...] -o ts.png
      throughput and P99 per interval; intervals with writes stalled shaded
  plot.py load p99_vs_load-rocksdb.csv p99_vs_load-vlsm.csv -o p99.png [--op update]
      P99 against offered load, one line per CSV (eval/report.py writes them)
  plot.py cdf out/runa.json out/runa-vlsm.json -o cdf.png [--op read]
      latency CDF tail (1 - CDF on a log axis), from the reports' histograms
  plot.py bars table.csv -o bars.png [--log]
      grouped bars: the CSV's columns are group, series, then one column per
      panel (its header is the panel's title); an empty cell draws no bar

Each input is labelled by --labels a,b,... or by its file name.
"""
import argparse
import csv
import json
import os
import sys


def load_matplotlib():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        sys.exit("plot.py: python3-matplotlib is not installed "
                 "(apt-get install python3-matplotlib)")


def labels_for(args):
    if args.labels:
        labels = args.labels.split(",")
        if len(labels) != len(args.inputs):
            sys.exit("plot.py: --labels needs one label per input")
        return labels
    return [os.path.splitext(os.path.basename(p))[0] for p in args.inputs]


def read_csv(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def timeseries(plt, args):
    fig, (tput, p99) = plt.subplots(2, 1, sharex=True, figsize=(9, 6))
    for path, label in zip(args.inputs, labels_for(args)):
        with open(path) as f:
            rep = json.load(f)
        csv_path = rep.get("intervals_csv") or path[:-5] + ".csv"
        if not os.path.exists(csv_path):  # moved beside its report
            csv_path = os.path.join(os.path.dirname(path),
                                    os.path.basename(csv_path))
        rows = read_csv(csv_path)
        t = [float(r["time_s"]) for r in rows]
        line, = tput.plot(t, [float(r["achieved_ops_per_s"]) / 1000 for r in rows],
                          label=label)
        col = f"{args.op.replace('-', '_')}_p99_us" if args.op != "all" else "all_p99_us"
        p99.plot(t, [max(float(r[col]), 1) / 1000 for r in rows],
                 color=line.get_color(), label=label)
        # Shade the intervals in which this run's writes were stalled.
        interval = t[1] - t[0] if len(t) > 1 else 1.0
        for r in rows:
            if r["write_stalled"] == "1":
                end = float(r["time_s"])
                for ax in (tput, p99):
                    ax.axvspan(end - interval, end, color=line.get_color(),
                               alpha=0.15, linewidth=0)
    tput.set_ylabel("throughput (K ops/s)")
    p99.set_ylabel(f"{args.op} P99 (ms)")
    p99.set_yscale("log")
    p99.set_xlabel("time (s); shaded: writes stalled")
    for ax in (tput, p99):
        ax.grid(True, alpha=0.3)
        ax.legend()
    return fig


def load_curve(plt, args):
    # One panel per percentile the CSVs carry: P99, and P99.9 beside it
    # when every CSV has an <op>_p99_9_us column.
    tables = [read_csv(path) for path in args.inputs]
    cols = [(f"{args.op}_p99_us", "P99")]
    if tables and all(t and f"{args.op}_p99_9_us" in t[0] for t in tables):
        cols.append((f"{args.op}_p99_9_us", "P99.9"))
    fig, axes = plt.subplots(1, len(cols), figsize=(7 * len(cols), 4.5), squeeze=False)
    for ax, (col, name) in zip(axes[0], cols):
        for rows, label in zip(tables, labels_for(args)):
            rows = [r for r in rows if r.get(col) not in ("", None)]
            x = [float(r["fraction"]) * 100 for r in rows]
            y = [float(r[col]) / 1000 for r in rows]
            ax.plot(x, y, marker="o", label=label)
        ax.set_xlabel(args.xlabel or "offered load (% of sustainable rate)")
        ax.set_ylabel(f"{args.op} {name} (ms)")
        ax.set_yscale("log")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    return fig


def cdf(plt, args):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for path, label in zip(args.inputs, labels_for(args)):
        with open(path) as f:
            rep = json.load(f)
        lat = rep["latency_us"].get(args.op)
        if not lat or not lat.get("histogram"):
            print(f"plot.py: {path} has no {args.op} histogram", file=sys.stderr)
            continue
        total = float(sum(c for _, c in lat["histogram"]))
        seen, xs, ys = 0, [], []
        for value_us, count in lat["histogram"]:
            seen += count
            tail = 1 - seen / total
            if tail <= 0:
                break
            xs.append(value_us / 1000)
            ys.append(tail)
        ax.step(xs, ys, where="post", label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(f"{args.op} latency (ms)")
    ax.set_ylabel("fraction of requests slower (1 - CDF)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    return fig


def bars(plt, args):
    rows = read_csv(args.inputs[0])
    metrics = [c for c in rows[0].keys() if c not in ("group", "series")]
    groups = list(dict.fromkeys(r["group"] for r in rows))
    series = list(dict.fromkeys(r["series"] for r in rows))
    cols = min(3, len(metrics))
    nrows = (len(metrics) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(4.5 * cols, 4.5 * nrows),
                             squeeze=False)
    panels = [ax for row in axes for ax in row]
    for ax in panels[len(metrics):]:
        ax.axis("off")
    width = 0.8 / len(series)
    for ax, metric in zip(panels, metrics):
        for i, name in enumerate(series):
            xs, ys = [], []
            for g, group in enumerate(groups):
                cell = next((r[metric] for r in rows
                             if r["group"] == group and r["series"] == name), "")
                if cell not in ("", None):
                    xs.append(g + (i - (len(series) - 1) / 2) * width)
                    ys.append(float(cell))
            # One colour per series in every panel, bars or not.
            ax.bar(xs, ys, width, label=name or None, color=f"C{i}")
        ax.set_xticks(range(len(groups)))
        ax.set_xlim(-0.5, len(groups) - 0.5)
        ax.set_xticklabels(groups, rotation=30, ha="right")
        ax.set_title(metric)
        if args.log:
            ax.set_yscale("log")
        ax.grid(True, axis="y", which="both", alpha=0.3)
    if len(series) > 1:
        axes[0][0].legend()  # the first panel has every series' colour
    return fig


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("kind", choices=["timeseries", "load", "cdf", "bars"])
    p.add_argument("inputs", nargs="+")
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--op", default="all",
                   help="read, update, insert, scan, read-modify-write or all")
    p.add_argument("--labels", default="")
    p.add_argument("--xlabel", default="", help="load: the x axis label")
    p.add_argument("--log", action="store_true", help="bars: log y axis")
    args = p.parse_args()
    plt = load_matplotlib()
    fig = {"timeseries": timeseries, "load": load_curve, "cdf": cdf,
           "bars": bars}[args.kind](plt, args)
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"plot.py: {args.output}")


if __name__ == "__main__":
    main()
