import SmartStackKit

/// How `smartstack report` prints the folder of `smartstack evaluate`: one table of the
/// columns a reader compares, under a caption that says what they are (every column and
/// its definition: docs/counterfactual.md).
struct EvaluationTable {
  /// The report file: `estimates.csv` or `validation.csv`.
  var file: String
  /// The columns printed, in this order; the first `textColumns` are labels.
  var columns: [String]
  var textColumns: Int
  var caption: String

  static let all = [
    EvaluationTable(
      file: "estimates.csv",
      columns: [
        "strategy", "estimator", "metric", "estimate", "ci_low", "ci_high", "effective_sample_size",
        "zero_probability_share", "note",
      ],
      textColumns: 3,
      caption:
        "Off-policy estimates (estimates.csv): per target strategy, estimator and metric, the estimate with its 95 % people-bootstrap interval, the effective sample size, and the share of visits whose target choice the logger could not have shown (IPS is not defined there), and what the estimate assumes or lacks (note). dm, ips, snips and dr estimate a one-visit deviation from the logger's state; rr and rr-dr the on-policy value by rule replay (docs/counterfactual.md)."
    ),
    EvaluationTable(
      file: "validation.csv",
      columns: [
        "logging_strategy", "strategy", "estimator", "metric", "truth", "estimate", "bias", "bias_ci_low",
        "bias_ci_high", "coverage", "unbiased", "unbiased_familywise",
      ],
      textColumns: 4,
      caption:
        "Estimator validation (validation.csv): over the replicates, the on-policy truth, the mean estimate, the bias (estimate − truth) with its 95 % interval, the share of replicates whose bootstrap interval held the truth (nominal 0.95), unbiased = 1 when the bias's 95 % Student-t interval contains 0, and unbiased_familywise = 1 when its interval widened for every row of the same logging strategy and estimator (Bonferroni) does."
    ),
  ]

  /// `estimates.csv` text as `markdown(_:)` prints it (for `evaluate` itself).
  static func estimates(_ csv: String) throws -> String {
    try all[0].markdown(CSVTable.read(bytes: Array(csv.utf8), file: "estimates.csv"))
  }

  /// The caption and the table of `table`'s `columns`.
  ///
  /// - Throws: `InputFileError` naming the first column the file lacks.
  func markdown(_ table: CSVTable) throws -> String {
    let indices = try columns.map { name in
      guard let i = table.header.firstIndex(of: name) else {
        throw InputFileError(path: table.file, reason: "no column '\(name)' (not a file of smartstack evaluate?)")
      }
      return i
    }
    let rows = table.rows.map { row in indices.map { $0 < row.count ? row[$0] : "" } }
    return caption + "\n\n" + RunTables.markdownTable(header: columns, rows: rows, textColumns: textColumns)
  }
}
