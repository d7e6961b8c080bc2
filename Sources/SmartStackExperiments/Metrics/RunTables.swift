import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// One finished run: a strategy over a source (one replicate), with its metrics.
public struct RunRecord: Sendable {
  /// The source's name (a log's file name, a scenario's name).
  public var source: String
  public var strategy: StrategyDescriptor
  public var replicate: Int
  public var seed: UInt64
  public var metrics: RunMetrics
  /// The strategy sees the visit's target (`TargetAwareStrategy`): the oracle other
  /// runs' `regret` is measured against.
  public var targetAware: Bool
  public init(
    source: String, strategy: StrategyDescriptor, replicate: Int, seed: UInt64, metrics: RunMetrics,
    targetAware: Bool
  ) {
    self.source = source
    self.strategy = strategy
    self.replicate = replicate
    self.seed = seed
    self.metrics = metrics
    self.targetAware = targetAware
  }
}

/// The CSV tables of a set of runs (RFC 4180, `\n` line ends, header row).
///
/// Numbers are written by `NumberFormat.format` (shortest round-trip text, integers
/// without a fraction); a metric that is undefined (a ratio over zero visits) is an
/// empty field. Rows keep the order of `records`, which callers sort by key.
public enum RunTables {
  /// `runs.csv`: `source,strategy,parameters,replicate,seed`, every metric of
  /// `MetricCatalog.standard` present in `records` (`MetricCatalog.present(in:)`), then `regret` = oracle hit_rate - hit_rate when an oracle run (a
  /// target-aware one, `RunRecord.targetAware`; the first) of the same source and
  /// replicate is among `records` (empty otherwise).
  ///
  /// When any record comes from a simulation, the `SimulationCounts.names` columns
  /// follow (empty for replayed records).
  public static func runs(_ records: [RunRecord]) -> String {
    let simulated = records.contains { $0.metrics.simulation != nil }
    let present = MetricCatalog.standard.present(in: records.map(\.metrics))
    var csv = CSVWriter(
      header: ["source", "strategy", "parameters", "replicate", "seed"] + present.names + ["regret"]
        + (simulated ? SimulationCounts.names : []))
    for r in records {
      let regret = self.regret(r, records)
      csv.appendRow(
        [r.source, r.strategy.name, r.strategy.parameters.canonical, String(r.replicate), String(r.seed)]
          + present.declarations.map { cell($0.run(r.metrics)) } + [cell(regret)]
          + (simulated
            ? (r.metrics.simulation?.values.map(cell) ?? Array(repeating: "", count: SimulationCounts.names.count))
            : []))
    }
    return csv.text
  }

  /// `daily.csv`: per run and local day: `source,strategy,parameters,replicate`, then
  /// `dayColumns` (`day` counts from 0 at the source's first day with a scored visit),
  /// then the `daily` metrics of `MetricCatalog.standard` present in `records`
  /// (`visits,target_visits,hits,hit_rate,rotations`).
  public static func daily(_ records: [RunRecord]) -> String {
    let metrics = MetricCatalog.standard.present(in: records.map(\.metrics)).daily
    var csv = CSVWriter(
      header: ["source", "strategy", "parameters", "replicate"] + dayColumns + metrics.map(\.name))
    for r in records {
      let firstDay = r.metrics.daily.first?.day ?? 0
      for (day, c, offsets) in r.metrics.daily {
        csv.appendRow(
          [r.source, r.strategy.name, r.strategy.parameters.canonical, String(r.replicate)]
            + dayCells(day - firstDay, day: day, offsets: offsets)
            + metrics.map { cell($0.person!(c, .nan)) })
      }
    }
    return csv.text
  }

  /// The columns that say which local day a `daily.csv` row is and where it lies in UTC:
  /// - `day`: days since the run's first day with a scored visit;
  /// - `date`: the local date, `YYYY-MM-DD`;
  /// - `utc_offset`, `utc_offset_end`: the UTC offsets in effect at the day's start and at
  ///   its end, in seconds east of UTC (as a log's `utc_offset` column; `DayOffsets`,
  ///   `LocalDays`): equal except on a day the offset changes (daylight saving time,
  ///   travel);
  /// - `start_utc`, `end_utc`: the instants the local day starts and ends (exclusive),
  ///   ISO 8601 UTC: `date` 00:00 read in `utc_offset`, the next day's 00:00 read in
  ///   `utc_offset_end`.
  public static let dayColumns = ["day", "date", "utc_offset", "utc_offset_end", "start_utc", "end_utc"]

  /// The `dayColumns` cells of local day `day`, numbered `number` in its run.
  public static func dayCells(_ number: Int64, day: Int64, offsets: DayOffsets) -> [String] {
    [
      String(number), dateText(day), String(offsets.start), String(offsets.end),
      ISO8601.format(Instant(milliseconds: offsets.startInstant(day: day))),
      ISO8601.format(Instant(milliseconds: offsets.endInstant(day: day))),
    ]
  }

  /// The hit rate of the first target-aware record of `r`'s source and replicate minus
  /// `r`'s; NaN when there is none.
  public static func regret(_ r: RunRecord, _ records: [RunRecord]) -> Double {
    let oracle = records.first { $0.targetAware && $0.source == r.source && $0.replicate == r.replicate }
    return oracle.map { $0.metrics.total.hitRate - r.metrics.total.hitRate } ?? .nan
  }

  /// A metric cell: empty for NaN, `NumberFormat.format` otherwise.
  public static func cell(_ x: Double) -> String { x.isNaN ? "" : NumberFormat.format(x) }

  /// `YYYY-MM-DD` of a day index (days since 1970-01-01).
  public static func dateText(_ day: Int64) -> String {
    let (y, m, d) = ISO8601.civil(fromDays: day)
    func two(_ x: Int) -> String { x < 10 ? "0\(x)" : "\(x)" }
    return "\(y)-\(two(m))-\(two(d))"
  }
}

extension RunTables {
  /// The main metrics per run as a Markdown table (what `batch`, `replay` and `report`
  /// print): source, strategy, hit rate, MRR, hit@3, coverage, rotations per day,
  /// relevance honoured, regret, and on a watch (`MetricGroup.multiCard` present) the
  /// share of wants on a card on screen. Fixed 3 decimals; `–` for undefined values.
  public static func markdown(_ records: [RunRecord]) -> String {
    let cards = records.contains { MetricGroup.multiCard.isPresent($0.metrics.total) }
    let header = ["source", "strategy", "hit_rate", "mrr", "hit_at_3", "coverage", "rotations_per_day", "relevance_honoured", "regret"]
      + (cards ? ["any_card_hit_rate"] : [])
    var rows: [[String]] = []
    for r in records {
      let regret = self.regret(r, records)
      let t = r.metrics.total
      rows.append(
        [r.source, r.strategy.label]
          + ([t.hitRate, t.mrr, t.hitRateAt3, t.coverage, t.rotationsPerDay, t.relevanceHonouredRate, regret]
            + (cards ? [t.anyCardHitRate] : [])).map(NumberFormat.tableCell))
    }
    return ReportCaptions.singleRuns + "\n\n" + markdownTable(header: header, rows: rows)
  }

  /// A Markdown table with columns padded to equal width: the first `textColumns` left-
  /// aligned, the others (numbers) right-aligned.
  public static func markdownTable(header: [String], rows: [[String]], textColumns: Int = 2) -> String {
    var widths = header.map { $0.count }
    for row in rows {
      for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
    }
    func line(_ cells: [String], numeric: Bool) -> String {
      var parts: [String] = []
      for (i, cell) in cells.enumerated() {
        let pad = String(repeating: " ", count: max(0, widths[i] - cell.count))
        parts.append(numeric && i >= textColumns ? pad + cell : cell + pad)
      }
      return "| " + parts.joined(separator: " | ") + " |"
    }
    var out = line(header, numeric: false) + "\n"
    out += "|" + widths.enumerated().map { i, w in
      i >= textColumns ? String(repeating: "-", count: w + 1) + ":" : ":" + String(repeating: "-", count: w + 1)
    }.joined(separator: "|") + "|\n"
    for row in rows { out += line(row, numeric: true) + "\n" }
    return out
  }
}
