import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// The CSV files of a batch (RFC 4180, header row, `\n` line ends), as bytes.
///
/// Rows follow the cell key: source point, then strategy point, then replicate, each in
/// expansion order (docs/batch.md). Numbers are written by `NumberFormat.format`
/// (shortest round-trip text); an undefined value is an empty field. Nothing here
/// depends on time, on the number of jobs or on the order cells finished in.
public enum ExperimentTables {
  /// `runs.csv`: one row per cell; the metric columns are those of the catalog present
  /// in the experiment (`MetricCatalog.present(in:)`).
  public static func runsHeader(_ catalog: MetricCatalog = .standard) -> [String] {
    ["run_id", "source", "strategy", "parameters", "replicate", "seed"] + catalog.names + ["regret"]
  }

  /// `daily.csv`: one row per cell and local day with scored visits; the metric columns
  /// are the catalog's `daily` ones.
  public static func dailyHeader(_ catalog: MetricCatalog = .standard) -> [String] {
    ["run_id", "source", "strategy", "parameters", "replicate"] + RunTables.dayColumns + catalog.daily.map(\.name)
  }

  /// `header` with a `split` column after `source` when the experiment has a time split
  /// (`ExperimentOutline.hasSplits`); as it is otherwise.
  static func withSplit(_ header: [String], _ outline: ExperimentOutline) -> [String] {
    guard outline.hasSplits, let i = header.firstIndex(of: "source") else { return header }
    return Array(header[...i]) + ["split"] + header[(i + 1)...]
  }

  /// `runs.csv` of `results` (sorted here by cell index). `regret` = the hit rate of the
  /// oracle run (the first target-aware strategy point, `ExperimentOutline.oracle`) of
  /// the same source and replicate minus this run's, empty when that run is not among
  /// `results`.
  public static func runs(
    _ outline: ExperimentOutline, _ results: [CellResult], catalog: MetricCatalog = .standard
  ) -> [UInt8] {
    let sorted = results.sorted { $0.cell < $1.cell }
    let present = catalog.present(in: sorted.map(\.metrics))
    let oracle = outline.oracle
    // Oracle hit rate per (source, replicate), found by index, not by search.
    var oracleHitRate: [Int: Double] = [:]
    if let oracle {
      for r in sorted where r.cell.strategy == oracle {
        oracleHitRate[r.cell.source * outline.replicates + r.cell.replicate] =
          r.metrics.total.hitRate
      }
    }
    // Scenario sources add the simulation's columns (empty for log sources).
    let simulated = outline.sources.contains { $0.kind == "scenario" }
    var csv = CSVWriter(header: withSplit(runsHeader(present), outline) + (simulated ? SimulationCounts.names : []))
    let split = outline.hasSplits
    let seed = String(outline.seed)
    for r in sorted {
      let strategy = outline.strategies[r.cell.strategy]
      csv.append(outline.runID(r.cell))
      csv.append(outline.sources[r.cell.source].name)
      if split { csv.append(outline.sources[r.cell.source].split ?? "") }
      csv.append(strategy.name)
      csv.append(strategy.parameters)
      csv.append(r.cell.replicate)
      csv.append(seed)
      for metric in present.declarations { csv.append(RunTables.cell(metric.run(r.metrics))) }
      let regret = oracleHitRate[r.cell.source * outline.replicates + r.cell.replicate].map {
        $0 - r.metrics.total.hitRate
      }
      csv.append(RunTables.cell(regret ?? .nan))
      if simulated {
        let values = r.metrics.simulation?.values ?? Array(repeating: .nan, count: SimulationCounts.names.count)
        for value in values { csv.append(RunTables.cell(value)) }
      }
      csv.endRow()
    }
    return csv.bytes
  }

  /// `daily.csv` of `results`: per run and local day, the day's `RunTables.dayColumns`
  /// (`day` counting from 0 at the run's first day with a scored visit, `date` that local
  /// date, its UTC offsets and its start and end in UTC), then its counts.
  public static func daily(
    _ outline: ExperimentOutline, _ results: [CellResult], catalog: MetricCatalog = .standard
  ) -> [UInt8] {
    let present = catalog.present(in: results.map(\.metrics))
    let metrics = present.daily
    var csv = CSVWriter(header: withSplit(dailyHeader(present), outline))
    let split = outline.hasSplits
    for r in results.sorted(by: { $0.cell < $1.cell }) {
      let strategy = outline.strategies[r.cell.strategy]
      let runID = outline.runID(r.cell)
      let source = outline.sources[r.cell.source].name
      let firstDay = r.metrics.daily.first?.day ?? 0
      for (day, c, offsets) in r.metrics.daily {
        csv.append(runID)
        csv.append(source)
        if split { csv.append(outline.sources[r.cell.source].split ?? "") }
        csv.append(strategy.name)
        csv.append(strategy.parameters)
        csv.append(r.cell.replicate)
        for text in RunTables.dayCells(day - firstDay, day: day, offsets: offsets) { csv.append(text) }
        for metric in metrics { csv.append(RunTables.cell(metric.person!(c, .nan))) }
        csv.endRow()
      }
    }
    return csv.bytes
  }

  /// `people.csv` (`--people`, `outputs.people`): one row per cell and person, in cell
  /// key order then person order: `run_id,source,[split,]strategy,parameters,replicate,
  /// person`, then the per-person metrics of `catalog` present in the experiment
  /// (`MetricCatalog.perPerson`: each person's own counts and exposure Gini, the values
  /// `summary.csv` averages). `person` is the person's 0-based index in the run's person
  /// order: a log's users in order of first appearance (users without scored rows are
  /// skipped), a scenario's people in order; the same index in every strategy and
  /// replicate of a log source. Rebuilt from the journaled per-person counts, so
  /// `--resume` and `merge` write the same bytes.
  public static func people(
    _ outline: ExperimentOutline, _ results: [CellResult], catalog: MetricCatalog = .standard
  ) -> [UInt8] {
    let sorted = results.sorted { $0.cell < $1.cell }
    let metrics = catalog.present(in: sorted.map(\.metrics)).perPerson
    let header = ["run_id", "source", "strategy", "parameters", "replicate", "person"] + metrics.map(\.name)
    var csv = CSVWriter(header: withSplit(header, outline))
    let split = outline.hasSplits
    for r in sorted {
      let strategy = outline.strategies[r.cell.strategy]
      let runID = outline.runID(r.cell)
      let source = outline.sources[r.cell.source]
      let gini = r.metrics.perPersonGini
      for (p, counts) in r.metrics.perPerson.enumerated() {
        csv.append(runID)
        csv.append(source.name)
        if split { csv.append(source.split ?? "") }
        csv.append(strategy.name)
        csv.append(strategy.parameters)
        csv.append(r.cell.replicate)
        csv.append(p)
        for metric in metrics { csv.append(RunTables.cell(metric.person!(counts, p < gini.count ? gini[p] : .nan))) }
        csv.endRow()
      }
    }
    return csv.bytes
  }

  /// `trace.csv`: the header, then each cell's rows (without header), in the order given.
  public static func trace(rows: [ArraySlice<UInt8>]) -> [UInt8] {
    var bytes = CSVWriter(header: TraceRecorder.header).bytes
    bytes.reserveCapacity(bytes.count + rows.reduce(0) { $0 + $1.count })
    for part in rows { bytes.append(contentsOf: part) }
    return bytes
  }
}
