import ArgumentParser
import Foundation
import SmartStackKit

/// The folder of `batch --emit-exposures`: an exposure set (`SetKind.exposures`) under the
/// rule of a report folder (`OutputClaim`, `OutputSet`), published with the batch's
/// reports all or nothing.
///
/// Before any log is made: the path is checked (`OutputFolder.check`), refused when it is
/// the batch's `--out`, a report set's folder or inside a set's hidden folders
/// (`ReportSetPath.checkFolder`), or holds an input, and claimed: a folder holding another
/// run's exposure logs (a manifest with `run` `exposures` and another config hash or
/// shard) is refused unless `--overwrite`, and an `exposures-*` file no manifest lists is
/// never replaced; the batch's `--out` is claimed too (`BatchSession.claim`). Then the logs and their `manifest.json` (`ExperimentManifest`, kind
/// `exposures`: the batch manifest's fields but `cells`) are staged in the locked folder;
/// the batch commits them after its reports are published. `--overwrite` replaces exactly
/// the files the previous manifest lists.
enum BatchExposureFolder {
  /// The checks of `folder` that need no run: not the batch's `--out`, no input inside,
  /// not a report set's folder, and strategies that can log exposures. `batch` makes them
  /// before it tunes or runs anything, and `stage` again.
  static func check(_ folder: String, design: ExperimentDesign, options: BatchOptions) throws {
    let out = options.directory
    if BatchCommand.sameFolder(folder, out) {
      throw ValidationError(
        "--emit-exposures \(folder) is the batch's own output folder, whose reports are one set; name another folder (a subfolder such as \(out)/exposures works)")
    }
    try OutputFolder.check(folder, files: [], inputs: design.inputPaths)
    try reportingErrors { try ReportSetPath.checkFolder(folder) }
    do {
      for choice in design.strategies { try ExposureRun.check(choice) }
    } catch let error as StrategyError {
      throw ValidationError("--emit-exposures: " + error.description)
    }
  }

  /// Checks and claims `folder`, makes the exposure logs and stages them with their
  /// manifest. The returned folder is locked; commit with `OutputSet.commitStaged`.
  static func stage(
    _ folder: String, design: ExperimentDesign, sources: [any ExperimentSource], options: BatchOptions
  ) throws -> (held: OutputFolder.Held, names: [String]) {
    try check(folder, design: design, options: options)
    let outline = ExperimentOutline(design: design, sources: sources)
    let claim = try reportingErrors {
      // The batch's own folder first (its run claims it again under its lock).
      _ = try BatchSession.claim(design, outline: outline, options: options)
      return try OutputClaim.check(
        folder,
        identity: OutputClaim.Identity(
          run: SetKind.exposuresRun, configHash: outline.configHash, shard: options.shard?.description),
        mode: options.overwrite ? .overwrite : .fresh, inputs: design.inputPaths)
    }
    let started = Instant.current
    var files = logs(design: design, sources: sources)
    let finished = Instant.current
    let manifest = ExperimentManifest(
      kind: .exposures, configFile: design.configFile, shard: options.shard, cellsInOutputs: 0, cellsRun: 0,
      cellsFromJournal: 0, jobs: 1, started: started, finished: finished,
      durationSeconds: Double(finished.milliseconds - started.milliseconds) / 1000, files: files)
    files.append(OutputSet.File(name: "manifest.json", text: manifest.json(outline)))
    let names = files.map(\.name)
    let known = names + claim.previousFiles.filter { !names.contains($0) }
    let held = try OutputFolder.lock(folder, files: names)
    // Staged before the batch runs (a full disk fails here, before any report is
    // published) and committed after it: the reports and the logs, all or nothing.
    do {
      try reportingErrors { try OutputSet.stage(files, into: held.path, known: known) }
    } catch {
      held.release(kept: false)
      throw error
    }
    return (held, known)
  }

  /// The exposure logs: per scenario source and strategy, the run of replicate 0 with the
  /// experiment's seed (the same run the batch scored), named
  /// `exposures-SOURCE-STRATEGY.csv` with every byte outside `A-Z a-z 0-9 . _ -` of the
  /// source's name and the strategy's label written as `_`, each with its sidecar and
  /// timelines (`ExposureRun.files`).
  static func logs(design: ExperimentDesign, sources: [any ExperimentSource]) -> [OutputSet.File] {
    func safe(_ text: String) -> String {
      String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || ".-_".contains($0)) ? $0 : "_" })
    }
    var files: [OutputSet.File] = []
    for case let source as ScenarioSource in sources {
      for choice in design.strategies {
        let emitted = ExposureRun.files(
          source.scenario, choice: choice, cell: SimulationCell(replicate: 0, seed: design.seed, options: source.options),
          logName: "exposures-\(safe(source.name))-\(safe(choice.descriptor.label)).csv")
        files += emitted.map { OutputSet.File(name: $0.name, text: $0.text) }
      }
    }
    return files
  }
}
