"""SmartStackLab from Python: run the `smartstack` tool and load its report folders.

    import smartstack
    smartstack.replay(log="Datasets/logs/tiny.csv", strategy="mfu,oracle", out="r")
    report = smartstack.load("r")      # {"daily": DataFrame, "runs": DataFrame, ...}
    report["runs"][["strategy", "hit_rate"]]
"""

from ._load import MARKERS, MixedReportError, Report, load, point_labels, read_csv, styles
from ._run import BinaryNotFound, Run, SmartStackError, batch, find_binary, options, replay, run, simulate

__version__ = "0.1.0"
__all__ = [
    "BinaryNotFound", "MARKERS", "MixedReportError", "Report", "Run", "SmartStackError", "batch", "find_binary",
    "load", "options", "point_labels", "read_csv", "replay", "run", "simulate", "styles",
]
