import ArgumentParser
import Foundation
import SmartStackKit

/// `smartstack simulate`: simulated people over days, strategies deciding the stack.
struct SimulateCommand: AsyncParsableCommand, RegistryCommand {
  static let configuration = CommandConfiguration(
    commandName: "simulate",
    abstract: "Simulate a scenario's people over days and write runs.csv and daily.csv.",
    discussion: """
      Every strategy faces the same simulated people (visits, wants, reactions, the apps' \
      timelines): see docs/scenario-format.md, "Paired design".

      Examples:
        smartstack simulate --scenario Datasets/scenarios/commuter.json
        smartstack simulate --scenario Datasets/scenarios/sports-fan.json \\
          --strategy mfu,relevance,smart-rotate --explain --out reports/sports-fan
        smartstack simulate --scenario Datasets/scenarios/commuter.json --days 7 \\
          --seed 3 --out reports/world --emit-log world/
        smartstack simulate --scenario Datasets/scenarios/tiny.json \\
          --strategy epsilon:rate=0.2:base=mfu --out reports/logging-epsilon \\
          --emit-exposures exposures.csv
      """)

  @Option(help: "The scenario JSON file.")
  var scenario: String

  @Option(help: "Strategies, comma-separated, each NAME or NAME:PARAM=VALUE:... (default: all).")
  var strategy: [String] = []

  @Option(parsing: .unconditional, help: "Days to simulate (default: the scenario's).")
  var days: Int?

  @Option(parsing: .unconditional, help: "Master seed (default: the scenario's).")
  var seed: UInt64?

  @Option(parsing: .unconditional, help: "Replicates: independent draws of the people, 0..<N.")
  var replicates: Int = 1

  @Option(help: "Output folder (created if needed).")
  var out: String = "reports/simulate"

  @Option(name: .customLong("emit-log"), help: "Also write the simulated donation log, visit log, stack and delivered relevance timelines of replicate 0 (first strategy) into this folder, with a manifest.json (\"run\": \"logs\"). Not the --out folder. A folder holding another run's logs is refused unless --overwrite; a file no manifest lists is never replaced.")
  var emitLog: String?

  // Not `--emit-log` (the name): that option already writes the world's logs
  // (donations, visits, stack, timelines) into a folder; an exposure log is one file of
  // another kind.
  @Option(name: .customLong("emit-exposures"), help: "Also write the exposure log (docs/counterfactual.md) of replicate 0 under the first strategy to this CSV file: per visit the candidates, what was shown, its probability and the outcome. Refused when it or its companions would replace the scenario or a file of a report or exposure set.")
  var emitExposures: String?

  @Option(name: .customLong("emit-format"), help: "Format of the emitted donation log: csv or jsonl.")
  var emitFormat: String = "csv"

  @Flag(help: "Write explain.csv: per visit (replicate 0) what was shown and why.")
  var explain = false

  @OptionGroup var engine: EngineArguments

  @Option(parsing: .unconditional, help: "Workers (default: the cores this process may use): (strategy, replicate) runs in parallel, and with fewer runs than workers a run's people are cut into blocks (not the runs recording --explain, --emit-log or --emit-exposures); the outputs are the same bytes for any number.")
  var jobs: Int = AvailableCores.count

  @Flag(help: "Print nothing but errors.")
  var quiet = false

  @Flag(help: "Replace the reports of another run in --out, and its logs in --emit-log (only the files its manifest.json lists are removed). Without it such a folder is refused; the same command run again replaces its own reports and logs.")
  var overwrite = false

  func validate() throws {
    if let days, !(1...366).contains(days) { throw ValidationError("--days must be within 1...366") }
    guard (1...1000).contains(replicates) else { throw ValidationError("--replicates must be within 1...1000") }
    guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    guard ["csv", "jsonl"].contains(emitFormat) else { throw ValidationError("--emit-format must be 'csv' or 'jsonl', not '\(emitFormat)'") }
  }

  func run(registry: StrategyRegistry) async throws {
    var choices: [StrategyChoice]
    do {
      choices = strategy.isEmpty ? try registry.allWithDefaults() : try strategy.flatMap { try registry.parseList($0) }
    } catch let error as StrategyError {
      throw ValidationError(error.description)
    }
    if choices.contains(where: { $0.type.name == ScoresStrategy.name }) {
      throw ValidationError("strategy '\(ScoresStrategy.name)' ranks by an outside model's scores, which only replay and batch read (--scores FILE)")
    }
    var options = SimulationOptions()
    options.days = days
    options.engine = engine.options
    let path = self.scenario
    // Every output path is checked before anything is read, created or written.
    try OutputFolder.check(out, files: OutputFolder.simulateFiles, inputs: [path])
    if let emitLog {
      // The logs are a set of their own (`SetKind.logs`, with its manifest): never in the
      // folder of the run's reports, a report set's folder or a set's `.journal/`.
      if BatchCommand.sameFolder(emitLog, out) {
        throw ValidationError(
          "--emit-log \(emitLog) is the run's own --out folder, whose reports are one set; name another folder (a subfolder such as \(out)/world works)")
      }
      try OutputFolder.check(emitLog, files: OutputFolder.emittedFiles, inputs: [path])
      try reportingErrors { try ReportSetPath.checkFolder(emitLog) }
    }
    if let emitExposures {
      try reportingErrors {
        try OutputPath.checkFile(emitExposures)
        for companion in Self.exposureCompanions(emitExposures) { try OutputPath.checkFile(companion) }
        for file in [emitExposures] + Self.exposureCompanions(emitExposures) {
          try ReportSetPath.check(file)
          if let problem = InputOutputOverlap.problem(inputs: [path], outputs: [("--emit-exposures", file)]) {
            throw ValidationError(TerminalText.escapingControls(problem))
          }
          try OutputFolder.checkOutside(file, option: "--emit-exposures", folder: out, files: OutputFolder.simulateFiles)
          if let emitLog {
            try OutputFolder.checkOutside(file, option: "--emit-exposures", folder: emitLog, files: OutputFolder.emittedFiles)
          }
        }
      }
      do {
        try choices.first.map(ExposureRun.check)
      } catch let error as StrategyError {
        throw ValidationError("--emit-exposures: " + error.description)
      }
    }
    let scenario = try reportingErrors { try Scenario.read(path: path) }
    if scenario.watch != nil {
      if strategy.isEmpty { choices = try registry.allWithDefaults(having: .watch) }
      if emitExposures != nil {
        throw ValidationError(
          "--emit-exposures: \(path) is a watchOS scenario, whose several cards per raise an exposure log (one shown widget per visit) cannot record")
      }
    } else if let clues = choices.first(where: { $0.type.info.needs.contains(.watch) }) {
      throw ValidationError(
        "strategy '\(clues.type.name)' ranks a watch's cards by their clues; \(path) is not a watchOS scenario (\"platform\": \"watchOS\")")
    }
    // A watch scenario's app files are inputs too: hashed in the manifest, never outputs
    // (a watch refuses --emit-exposures above, so only the folders are checked again).
    let inputs = [path] + (scenario.watch?.appFiles ?? [])
    try OutputFolder.check(out, files: OutputFolder.simulateFiles, inputs: inputs)
    if let emitLog { try OutputFolder.check(emitLog, files: OutputFolder.emittedFiles, inputs: inputs) }
    let (claim, manifest) = try OutputFolder.claim(out, run: "simulate", inputs: inputs, overwrite: overwrite)
    // The logs' folder is claimed as --out is, before any work: another run's logs are
    // refused unless --overwrite, a file no manifest lists is never replaced.
    let logClaim = try emitLog.map { folder in
      try reportingErrors {
        try OutputClaim.check(
          folder, identity: OutputClaim.Identity(run: SetKind.logsRun, configHash: manifest.configHash),
          mode: overwrite ? .overwrite : .fresh, inputs: inputs)
      }
    }
    let held = try OutputFolder.lock(out, files: OutputFolder.simulateFiles)
    var published = false
    defer { held.release(kept: published) }
    let emitHeld = try emitLog.map { try OutputFolder.lock($0, files: OutputFolder.emittedFiles) }
    defer { emitHeld?.release(kept: published) }
    let seed = self.seed ?? scenario.seed
    let source = scenario.name

    // Cells: strategy × replicate, each simulated once, in parallel, collected in key
    // order; replicate 0 carries the explain rows, the logs and the exposure log.
    let plan = SimulationRuns.jobs(
      strategies: choices.count, replicates: replicates, explain: explain, logs: emitLog != nil,
      exposures: emitExposures != nil)
    let progress = ProgressReporter.Counter(
      ProgressReporter(label: "simulate", unit: "runs", quiet: quiet), total: plan.count)
    var cells = await SimulationRuns.run(
      scenario, choices: choices, jobs: plan, seed: seed, options: options, workers: jobs,
      progress: { done, _ in if done > 0 { progress.tick() } })
    // Replicate 0 of the first strategy: the logs and the exposure log.
    let (world, exposureLog) = (cells.first?.emitter, cells.first?.exposures)
    let records = plan.indices.map { k in
      RunRecord(
        source: source, strategy: choices[plan[k].choice].descriptor, replicate: plan[k].replicate,
        seed: seed, metrics: cells[k].metrics, targetAware: choices[plan[k].choice].isTargetAware)
    }

    // The exposure log is made before anything is published, and written first: a
    // failure leaves the report folder as it was.
    if let emitExposures, let log = exposureLog, let world {
      let files = ExposureRun.files(
        log: log, sidecar: ExposureSidecar(scenario: scenario, emitter: world),
        logName: (emitExposures as NSString).lastPathComponent)
      let folder = (emitExposures as NSString).deletingLastPathComponent
      // The companions first, the log last: a log is never left without them.
      try reportingErrors {
        for (k, file) in files.enumerated().reversed() {
          let path = k == 0 ? emitExposures : folder.isEmpty ? file.name : folder + "/" + file.name
          try AtomicFile.write(Array(file.text.utf8), to: path)
        }
      }
    }
    try reportingErrors {
      var files = [
        OutputSet.File(name: "runs.csv", text: RunTables.runs(records)),
        OutputSet.File(name: "daily.csv", text: RunTables.daily(records)),
      ]
      if explain {
        // The runs' rows in strategy order, the header once; each run's rows are dropped
        // once copied, so the file and the rows are not held twice over.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(cells.reduce(0) { $0 + ($1.explain?.csv.bytes.count ?? 0) })
        for k in plan.indices {
          guard let rows = cells[k].explain?.csv.bytes else { continue }
          cells[k].explain = nil
          bytes += rows[(bytes.isEmpty ? 0 : rows.firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0)...]
        }
        files.append(OutputSet.File(name: "explain.csv", bytes: bytes))
      }
      // Both sets are built, and the logs staged, before either is published; the logs
      // are committed after the reports: both or neither.
      var emittedSet: [OutputSet.File] = []
      if emitLog != nil, let emitter = world {
        let log = emitter.donationLog
        let stack = StackSpec(file: "stack.json", instances: scenario.stackInstances, catalog: scenario.catalog)
        emittedSet = [
          emitFormat == "jsonl"
            ? OutputSet.File(name: "donations.jsonl", text: log.jsonlText())
            : OutputSet.File(name: "donations.csv", text: log.csvText()),
          OutputSet.File(name: "visits.csv", text: emitter.visitLogCSV),
          OutputSet.File(name: "timelines.json", text: emitter.stackTimelines.jsonText()),
          OutputSet.File(name: "stack.json", text: stack.jsonText()),
        ]
        if emitter.context.count > 0 {
          emittedSet.append(OutputSet.File(name: "context.csv", text: emitter.context.csvText()))
        }
      }
      var logKnown: [String] = []
      if let emitHeld, let logClaim {
        var logManifest = manifest
        logManifest.run = SetKind.logsRun
        logManifest.jobs = 1
        logManifest.finished = Instant.current
        logManifest.durationSeconds = Double(logManifest.finished.milliseconds - logManifest.started.milliseconds) / 1000
        emittedSet.append(OutputSet.File(name: "manifest.json", text: logManifest.json(files: emittedSet)))
        let names = emittedSet.map(\.name)
        logKnown = names + logClaim.previousFiles.filter { !names.contains($0) }
        try OutputSet.stage(emittedSet, into: emitHeld.path, known: logKnown)
      }
      do {
        try OutputFolder.publish(
          files, into: held, claim: claim, manifest: manifest, jobs: jobs, files: OutputFolder.simulateFiles)
      } catch {
        if let emitHeld { OutputSet.discardStaged(in: emitHeld.path) }
        throw error
      }
      if let emitHeld { try OutputSet.commitStaged(into: emitHeld.path, known: logKnown) }
    }
    published = true
    if !quiet {
      StandardOutput.write(RunTables.markdown(records))
      var message = "simulated \(scenario.personCount) people × \(days ?? scenario.days) days × \(replicates) replicate(s); wrote \(out)/runs.csv, \(out)/daily.csv"
      if explain { message += ", \(out)/explain.csv" }
      if let emitExposures { message += "; exposure log \(emitExposures) (smartstack evaluate --exposures \(emitExposures) --strategy ...)" }
      if let emitLog {
        message += "; logs in \(emitLog)/ (replay: smartstack replay --log \(emitLog)/donations.\(emitFormat) --visits \(emitLog)/visits.csv --stack \(emitLog)/stack.json --timelines \(emitLog)/timelines.json --timezone \(scenario.zone.identifier) --horizon 0)"
      }
      StandardError.write(message)
    }
  }

  /// The sidecar and timelines written beside an exposure log (`ExposureRun.files`).
  static func exposureCompanions(_ log: String) -> [String] {
    let folder = (log as NSString).deletingLastPathComponent
    let timelines = ExposureSidecar.timelinesName(besideLog: log)
    let context = ExposureSidecar.contextName(besideLog: log)
    return [ExposureSidecar.path(besideLog: log)] + [timelines, context].map { folder.isEmpty ? $0 : folder + "/" + $0 }
  }
}
