"""What the commands print: tables and lists of edges."""

from __future__ import annotations


def edges_text(dag) -> str:
    """``A->B, A->C`` (sorted), or ``(no edges)``."""
    edges = sorted(dag.edges())
    return ", ".join(f"{u}->{v}" for u, v in edges) if edges else "(no edges)"


def table(header, rows) -> str:
    """Right-aligned columns, two spaces apart, a header first."""
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows, strict=True)]
    lines = ["  ".join(str(x).rjust(w) for x, w in zip(header, widths, strict=True))]
    lines += ["  ".join(str(x).rjust(w) for x, w in zip(row, widths, strict=True)) for row in rows]
    return "\n".join(lines)
