"""Results: parse an NPB run's output, print the table, write the CSVs.

A result is one (mpi, benchmark, class, np) case with a status:
  ok       ran, exit 0, "Verification = SUCCESSFUL"
  FAILED   build failure, verification not SUCCESSFUL, crash, timeout
  skipped  the benchmark does not accept this process count
"""

import csv
import re

OK, FAILED, SKIPPED = "ok", "FAILED", "skipped"

_VERIFY = re.compile(r"^\s*Verification\s*=\s*(.+?)\s*$", re.M)
_TIME = re.compile(r"^\s*Time in seconds\s*=\s*(\S+)", re.M)
_MOPS = re.compile(r"^\s*Mop/s total\s*=\s*(\S+)", re.M)

RED, RESET = "\033[31m", "\033[0m"


class Result:
    def __init__(self, mpi, bench, cls, np, status, verified="", time=None,
                 mops=None, reason="", log=""):
        self.mpi, self.bench, self.cls, self.np = mpi, bench, cls, np
        self.status, self.verified = status, verified
        self.time, self.mops = time, mops
        self.reason, self.log = reason, log

    @property
    def case(self):
        return (self.bench, self.cls, self.np)


def _number(rx, text):
    m = rx.search(text)
    if not m:
        return None
    try:
        return float(m.group(1))
    except ValueError:
        return None


def _last_line(text):
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return lines[-1][:100] if lines else "no output"


def judge(output, rc, timed_out, timeout):
    """(status, verified, time, mops, reason) of one run's output."""
    m = _VERIFY.search(output)
    verified = m.group(1) if m else ""
    t, mops = _number(_TIME, output), _number(_MOPS, output)
    if timed_out:
        # A run that printed a verified result and then did not exit hung
        # at the end (e.g. in MPI_Finalize): say so, the time is NPB's own.
        late = ", after verification SUCCESSFUL (hung at exit)" \
            if verified == "SUCCESSFUL" else ""
        return (FAILED, verified, t, mops,
                "timed out after %ds%s" % (timeout, late))
    if not m:
        return (FAILED, "", t, mops, "no Verification line (exit %d): %s"
                % (rc, _last_line(output)))
    if verified != "SUCCESSFUL":
        return FAILED, verified, t, mops, "verification %s" % verified
    if rc != 0:
        return FAILED, verified, t, mops, "exit code %d" % rc
    if t is None or mops is None:
        return FAILED, verified, t, mops, "no Time/Mop/s line in output"
    return OK, verified, t, mops, ""


def _cell(r):
    """Verified / time / Mop/s cells of one result."""
    if r is None:
        return ["-", "", ""]
    if r.status == SKIPPED:
        return ["skipped", "", ""]
    t = "%.2f" % r.time if r.time is not None else ""
    m = "%.2f" % r.mops if r.mops is not None else ""
    if r.status == FAILED:
        return ["FAILED", t, m]
    return [r.verified, t, m]


def ratio(a, b):
    """rdmpi time / other time, when both ran. Both runs did the same
    operations, so this is other Mop/s / rdmpi Mop/s, which is the more
    precise of the two: NPB prints times with two decimals only."""
    if not (a and b and a.status == OK and b.status == OK):
        return None
    if a.mops and b.mops:
        return b.mops / a.mops
    return a.time / b.time if b.time else None


def table(results, mpis, color):
    """The text table: one row per case, each MPI side by side, then the
    ratios and the reasons for anything not ok."""
    cases = []
    for r in results:
        if r.case not in cases:
            cases.append(r.case)
    by = {(r.mpi,) + r.case: r for r in results}

    head = ["benchmark", "class", "np"]
    for mpi in mpis:
        head += [mpi + " verified", "time(s)", "Mop/s"]
    for mpi in mpis[1:]:
        head.append("%s/%s time" % (mpis[0], mpi))
    head.append("note")

    rows, bad = [], []
    for case in cases:
        row = [case[0], case[1], str(case[2])]
        rs = [by.get((mpi,) + case) for mpi in mpis]
        for r in rs:
            row += _cell(r)
        for r in rs[1:]:
            q = ratio(rs[0], r)
            row.append("%.3g" % q if q is not None else "")
        reasons = [(mpi, r.reason) for mpi, r in zip(mpis, rs)
                   if r and r.status != OK]
        if len({why for _, why in reasons}) == 1 and len(reasons) == len(rs):
            row.append(reasons[0][1])  # the same for every MPI
        else:
            row.append("; ".join("%s: %s" % (m, why) for m, why in reasons))
        rows.append(row)
        bad.append(any(r and r.status == FAILED for r in rs))

    widths = [max(len(x[i]) for x in [head] + rows) for i in range(len(head))]
    numeric = {2} | {i for i, h in enumerate(head)
                     if h in ("time(s)", "Mop/s") or h.endswith(" time")}

    def fmt(row):
        cells = []
        for i, (x, w) in enumerate(zip(row, widths)):
            if i == len(row) - 1:
                cells.append(x)
            else:
                cells.append(x.rjust(w) if i in numeric else x.ljust(w))
        return "  ".join(cells).rstrip()

    lines = [fmt(head), fmt(["-" * w for w in widths[:-1]] + ["----"])]
    for row, is_bad in zip(rows, bad):
        line = fmt(row)
        lines.append(RED + line + RESET if is_bad and color else line)
    return "\n".join(lines)


def write_csv(path, results):
    """One line per (mpi, benchmark, class, np)."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["mpi", "benchmark", "class", "np", "status", "verified",
                    "time_s", "mops_total", "reason", "log"])
        for r in results:
            w.writerow([r.mpi, r.bench, r.cls, r.np, r.status, r.verified,
                        "" if r.time is None else "%.6g" % r.time,
                        "" if r.mops is None else "%.6g" % r.mops,
                        r.reason, r.log])


def write_compare_csv(path, results, mpis):
    """One line per case, each MPI's time and Mop/s and the time ratios
    rdmpi/other (below 1: rdmpi was faster)."""
    by = {(r.mpi,) + r.case: r for r in results}
    cases = []
    for r in results:
        if r.case not in cases:
            cases.append(r.case)
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        head = ["benchmark", "class", "np"]
        for mpi in mpis:
            head += [mpi + "_status", mpi + "_time_s", mpi + "_mops_total"]
        head += ["time_ratio_%s_over_%s" % (mpis[0], m) for m in mpis[1:]]
        w.writerow(head)
        for case in cases:
            rs = [by.get((mpi,) + case) for mpi in mpis]
            row = list(case)
            for r in rs:
                row += [r.status if r else "",
                        "" if not r or r.time is None else "%.6g" % r.time,
                        "" if not r or r.mops is None else "%.6g" % r.mops]
            for r in rs[1:]:
                q = ratio(rs[0], r)
                row.append("" if q is None else "%.4f" % q)
            w.writerow(row)
