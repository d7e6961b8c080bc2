"""SmartStackLab from Python: run the `smartstack` tool and load its report folders.

    import smartstack
    result = smartstack.replay(log="Datasets/logs/tiny.csv", strategy=["mfu", "oracle"], out="r")
    result.runs[["strategy", "hit_rate"]]      # DataFrames of the report folder
    result.plot()                              # a matplotlib figure
    report = smartstack.load("r", tables=["runs", "daily"])   # any folder, typed DataFrames

`batch`, `replay`, `simulate`, `evaluate` and `validate` take the command's options as
keyword parameters (generated from the tool's own option list: python/generate_api.py);
`run(command, ...)` runs any command with free-form options. `smartstack.obp` exports an
exposure log to Open Bandit Pipeline's `bandit_feedback`.

The package runs the `smartstack` binary (see `find_binary`): a plain `swift build` of it
needs the Swift runtime libraries of the toolchain at run time (`MissingSwiftRuntime` says
so); a `--static-swift-stdlib` build does not (README, "Python").
"""

from ._api import (BatchResult, EvaluateResult, MissingSwiftRuntime, ReplayResult, Result, SimulateResult,
                   ValidateResult, frame_to_csv, write_scores)
from ._commands import batch, evaluate, replay, simulate, validate
from ._load import LAZY_TABLES, MARKERS, MixedReportError, Report, load, point_labels, read_csv, styles
from ._plot import (estimates_frame, interval_data, period_data, plot_estimates, plot_intervals, plot_periods,
                    plot_tradeoff, tradeoff_data)
from ._run import BinaryNotFound, Run, SmartStackError, find_binary, options, run

__version__ = "0.1.0"
__all__ = [
    "BatchResult", "BinaryNotFound", "EvaluateResult", "LAZY_TABLES", "MARKERS", "MissingSwiftRuntime",
    "MixedReportError", "Report", "ReplayResult", "Result", "Run", "SimulateResult", "SmartStackError",
    "ValidateResult", "batch", "estimates_frame", "evaluate", "find_binary", "frame_to_csv", "interval_data",
    "load", "options", "period_data", "plot_estimates", "plot_intervals", "plot_periods", "plot_tradeoff",
    "point_labels", "read_csv", "replay", "run", "simulate", "styles", "tradeoff_data", "validate", "write_scores",
]
