import ArgumentParser
import Foundation
import SmartStackKit

/// `smartstack batch [CONFIG]`: runs an experiment and writes its reports.
struct BatchCommand: AsyncParsableCommand, RegistryCommand {
  static let defaultConfig = "Datasets/experiments/default.json"

  static let configuration = CommandConfiguration(
    commandName: "batch",
    abstract: "Run an experiment (sources × strategies × replicates) and write CSV reports.",
    discussion: """
      With no CONFIG, runs the bundled default experiment \(defaultConfig) (run from the \
      repository's root folder). Writes runs.csv, daily.csv, summary.csv, paired.csv and \
      manifest.json (and trace.csv with --trace, people.csv with --people) into --out, prints the main metrics as a \
      compact summary (a table of per-unit means per metric; every table with --verbose), \
      and shows progress on standard error.

      Precedence: built-in defaults < the config file < these options. Every problem in the \
      config and its input files is reported (FILE:LINE:COLUMN: key.path: message) before \
      anything runs.

      Quick path, without a config: --log FILE (with replay's --visits, --stack, --horizon, \
      --timezone, --warmup-days, --timelines, --scores; and --split, a time split) or --scenario \
      FILE (with --days), and \
      --strategy; the first strategy is the baseline, the output folder reports/NAME (NAME: \
      the file's base name). --init [FILE] writes a commented starting config (default \
      experiment.json) that runs as it is. With a config, --split TEXT splits every log \
      source that has no split of its own (one with another split is refused).

      Examples:
        smartstack batch
        smartstack batch --log Datasets/logs/tiny.csv --visits sessions:5 \\
          --strategy mfu,hour-of-week,oracle
        smartstack batch --scenario Datasets/scenarios/commuter.json --days 14 \\
          --strategy mfu,smart-rotate,oracle
        smartstack batch --log Datasets/logs/shift-worker/donations.csv \\
          --visits Datasets/logs/shift-worker/visits.csv --strategy mfu,oracle \\
          --max-memory 128K                    # replayed in blocks of people
        smartstack batch --init my-study.json      # a commented config to start from
        smartstack batch my-study.json --replicates 10 --out results/run1
        smartstack batch my-study.json --replicates 10 --out results/run1 \\
          --resume                                  # after an interruption
        smartstack batch my-study.json \\
          --strategy mfu,mru,hour-of-week:half-life-days=14 --out results/run2
        smartstack batch my-study.json --out results/run1 \\
          --overwrite                          # replace another run's reports
        smartstack batch my-study.json --shard 1/2 --out results/shard-1
        smartstack batch my-study.json --shard 2/2 --out results/shard-2
        smartstack merge results/shard-1 results/shard-2 --out results/all

      Config format, outputs and statistics: docs/batch.md.
      """)

  @Argument(help: ArgumentHelp("The experiment config (JSON).", valueName: "config"))
  var config: String?

  @Option(parsing: .unconditional, help: "Master seed (overrides the config's 'seed').")
  var seed: UInt64?

  @Option(parsing: .unconditional, help: "Replicates per source and strategy (overrides 'replicates').")
  var replicates: Int?

  @Option(help: "Output folder (default: the config's outputs.dir, else reports).")
  var out: String?

  @Option(
    help: ArgumentHelp(
      "Strategies, replacing the config's list: NAME or NAME:PARAM=VALUE:…, comma-separated or repeated.",
      valueName: "spec"))
  var strategy: [String] = []

  @Option(
    help:
      "The baseline strategy of paired.csv (overrides 'baseline'; must be among the strategies).")
  var baseline: String?

  @Option(parsing: .unconditional, help: "Workers (default: the cores this process may use): cells run in parallel, and with fewer cells than workers a cell's people are cut into blocks (docs/batch.md, \"People in parallel on one machine\"); the outputs are the same bytes for any number.")
  var jobs: Int?

  /// `--jobs`, or the cores this process may use (`AvailableCores`; an optional, so the help
  /// states the default once).
  var jobCount: Int { jobs ?? AvailableCores.count }

  @Flag(
    inversion: .prefixedNo, help: "Write trace.csv, one row per visit (overrides outputs.trace).")
  var trace: Bool?

  @Flag(
    inversion: .prefixedNo,
    help: "Write people.csv, one row per person, strategy, replicate and split (overrides outputs.people).")
  var people: Bool?

  @Option(
    name: .customLong("emit-exposures"),
    help: ArgumentHelp(
      "Also write into this folder the exposure log (docs/counterfactual.md) of replicate 0 of every scenario source and strategy, exposures-SOURCE-STRATEGY.csv, with a manifest.json; log sources have none (replay reveals no taps). The folder follows --out's rule: another run's logs there are refused unless --overwrite.",
      valueName: "folder"))
  var emitExposures: String?

  @Flag(help: "Print nothing but errors (no progress, no table).")
  var quiet = false

  @Flag(help: "Print every table (pooled rates, per-unit means with CIs, paired differences) instead of the compact summary.")
  var verbose = false

  @Flag(help: "Skip the cells already journaled in the output folder by an interrupted run.")
  var resume = false

  @OptionGroup(title: "Quick path (no config)") var quick: QuickSourceOptions

  @Flag(name: .customLong("init"), help: "Write a commented starting config to CONFIG (default experiment.json) and stop.")
  var writeTemplate = false

  @Flag(help: "Replace the reports of another run in --out, and its exposure logs in --emit-exposures (only the files its manifest.json lists are removed). Without it such a folder is refused; the same experiment run again replaces its own reports.")
  var overwrite = false

  @Option(
    help: ArgumentHelp(
      "Run only shard K of N (the cells whose index is K-1 modulo N); combine with 'smartstack merge'. 'env' takes K/N from a Slurm job array (SLURM_ARRAY_TASK_ID, _MIN, _MAX, _COUNT); 'env/N' from a Kubernetes Indexed Job (JOB_COMPLETION_INDEX) of N completions (docs/batch.md).",
      valueName: "K/N|env|env/N"))
  var shard: String?

  @Option(
    name: .customLong("people-block"),
    help: ArgumentHelp(
      "With --shard: cut every cell of a log or scenario source with more than SIZE people into blocks of SIZE consecutive people, so that the shards share one big source's people, not only whole cells; every shard and its --resume must give the same SIZE. Merged reports are byte-identical to one run (docs/batch.md, \"People shards\").",
      valueName: "size"))
  var peopleBlock: Int?

  @Option(
    name: .customLong("max-memory"),
    help: "About how much memory the log sources' replay plans may hold: a size such as 512M or 4G. When the plans of all log source points would take more than half of it (each about half its donation and visit logs' size), the biggest points are read once to disk and their cells replayed together block by block of people instead, one block's plan at a time (and the next built beside it); the reports are the same bytes either way (docs/batch.md, \"Memory\"). Not with trace.csv, which needs whole plans. Default: a quarter of the memory the process may use: the machine's, or its cgroup's limit (a container's, a Slurm job's) when smaller.")
  var maxMemory: String?

  func validate() throws {
    guard jobCount >= 1 else { throw ValidationError("--jobs must be at least 1") }
    _ = try MemoryBudgetOption.budget(maxMemory)
    if let replicates, !(1...ExperimentConfig.maximumReplicates).contains(replicates) {
      throw ValidationError("--replicates must be within 1...\(ExperimentConfig.maximumReplicates)")
    }
    if let shard, ShardRequest(parsing: shard) == nil {
      throw ValidationError(
        "--shard must be K/N with 1 <= K <= N (e.g. 2/8), env (a Slurm job array) or env/N (a Kubernetes Indexed Job of N completions), not '\(shard)'")
    }
    if let out, out.isEmpty { throw ValidationError("--out needs a folder name") }
    if let peopleBlock {
      guard peopleBlock >= 1 else { throw ValidationError("--people-block must be at least 1 (people per block), not \(peopleBlock)") }
      guard shard != nil else {
        throw ValidationError("--people-block divides cells' people among shards: give it with --shard K/N (or env)")
      }
    }
    if resume && overwrite { throw ValidationError("--resume continues the run in --out and --overwrite replaces it: give one of them") }
  }

  func run(registry: StrategyRegistry) async throws {
    if writeTemplate {
      let file = config ?? ExperimentTemplate.defaultFile
      try ExperimentTemplate.write(file)
      if !quiet { StandardError.write("wrote \(file): edit it, then run: smartstack batch \(file)") }
      return
    }
    if quick.isUsed {
      guard config == nil else { throw ValidationError("give a config file or --\(quick.log != nil ? "log" : "scenario"), not both") }
      guard !strategy.isEmpty else {
        throw ValidationError("--\(quick.log != nil ? "log" : "scenario") needs --strategy, e.g. --strategy mfu,hour-of-week,oracle")
      }
    }
    let configPath = config ?? Self.defaultConfig
    if config == nil && !quick.isUsed && !FileManager.default.fileExists(atPath: configPath) {
      StandardError.write(
        "\(configPath): cannot read: no such file. With no config, 'smartstack batch' runs the bundled default experiment: run it from the repository's root folder, or give a config file"
      )
      throw Exit.noInput
    }
    let overrides = ExperimentOverrides(
      seed: seed, replicates: replicates, strategies: strategy.isEmpty || quick.isUsed ? nil : strategy,
      baseline: baseline, trace: trace, people: people, split: quick.isUsed ? nil : try quick.timeSplit())
    let shard = try resolvedShard(environment: ProcessInfo.processInfo.environment)
    let progress = ProgressReporter(label: "batch", quiet: quiet, plainLines: true)
    let report = try await reportingBatchErrors {
      let design =
        quick.isUsed
        ? try ExperimentConfig.read(
          bytes: Array(quick.config(strategies: strategy).utf8), file: QuickSourceOptions.file,
          overrides: overrides, registry: registry)
        : try ExperimentConfig.read(path: configPath, overrides: overrides, registry: registry)
      let out = out ?? (quick.isUsed ? "reports/" + quick.name : nil)
      try ExperimentOutputs.checkFolder(out ?? design.outputDirectory ?? "reports")
      if peopleBlock != nil, design.trace {
        let why =
          "asks for trace.csv, which is kept per cell, so cells cannot be cut into people blocks (--people-block): run without the trace, or without --people-block"
        throw ExperimentUsageError(
          design.traceLocation.map { $0.diagnostic("true \(why)").description } ?? "--trace \(why)")
      }
      let budget = try MemoryBudgetOption.budget(maxMemory)
      if !quiet, design.trace,
        let warning = Self.memoryWarning(estimate: SourceLoader.estimatedPlanBytes(design), limit: MemoryLimit.current())
      {
        StandardError.write(warning)
      }
      let sources = try SourceLoader.load(design, budget: budget, jobs: jobCount)
      if !quiet {
        for source in sources {
          if let log = source as? LogSource {
            for warning in log.warnings { StandardError.write(warning) }
            for note in log.plan.notes { StandardError.write("note: \(source.name): \(note)") }
          } else if let log = source as? SpilledLogSource {
            for warning in log.warnings { StandardError.write(warning) }
            for note in log.notes { StandardError.write("note: \(source.name): \(note)") }
            StandardError.write("note: \(source.name): \(Self.blocksNote(log, budget: budget))")
          }
        }
      }
      InterruptNote.install()
      let options = BatchOptions(
        directory: out ?? design.outputDirectory ?? "reports", jobs: jobCount, resume: resume,
        shard: shard, overwrite: overwrite, peopleBlocks: peopleBlock.flatMap { PeopleBlocks(size: $0) })
      // The exposure folder is claimed, its logs made and staged before the batch runs,
      // and committed after it succeeds (`BatchExposureFolder`): a failure of either
      // before that writes nothing there.
      var exposureFolder: (held: OutputFolder.Held, names: [String])?
      var published = false
      defer {
        if let exposureFolder, !published { OutputSet.discardStaged(in: exposureFolder.held.path) }
        exposureFolder?.held.release(kept: published)
      }
      // Tuned points are chosen first, so the exposure logs and their manifest are those of
      // the chosen configurations, as the reports are.
      if let emitExposures { try BatchExposureFolder.check(emitExposures, design: design, options: options) }
      let (runDesign, tuningCSV) = try await BatchSession.tune(design, sources: sources, options: options)
      if let emitExposures {
        exposureFolder = try BatchExposureFolder.stage(emitExposures, design: runDesign, sources: sources, options: options)
      }
      defer { progress.finish() }
      let report = try await BatchSession.run(
        runDesign, sources: sources, options: options, tuningCSV: tuningCSV
      ) { done, total in
        progress.update(done: done, total: total)
      }
      if let exposureFolder {
        try reportingErrors {
          try OutputSet.commitStaged(into: exposureFolder.held.path, known: exposureFolder.names)
        }
        published = true
      }
      return report
    }
    guard !quiet else { return }
    for note in report.notes { StandardError.write("note: \(note)") }
    for note in IdenticalReplicates.notes(directory: report.directory) {
      StandardError.write("note: \(note)")
    }
    try Self.printTables(directory: report.directory, registry: registry, verbose: verbose)
    let cells =
      peopleBlock != nil
      ? "\(report.cellsRun + report.cellsFromJournal) units of cells and people blocks: \(report.cellsRun) run, \(report.cellsFromJournal) from the journal"
      : report.cellsFromJournal > 0
      ? "\(report.cellsInOutputs) cells: \(report.cellsRun) run, \(report.cellsFromJournal) from the journal"
      : "\(report.cellsInOutputs) cells"
    let what = shard.map { "shard \($0) of " } ?? ""
    StandardError.write(
      "wrote \(what)\(report.outline.name) to \(report.directory)/: \(report.files.joined(separator: ", ")) (\(cells), \(ProgressReporter.duration(progress.elapsed)))"
    )
  }

  /// The shard `--shard` names, `env` resolved from `environment` (read by the caller, at
  /// the command's edge); a shard from the environment is said on standard error, unless
  /// `--quiet`, so a cluster log shows which one a task ran. An unresolvable `env` is a
  /// usage error (exit 64).
  func resolvedShard(environment: [String: String]) throws -> Shard? {
    guard let text = self.shard, let request = ShardRequest(parsing: text) else { return nil }
    do {
      let resolved = try request.resolve(environment: environment)
      if let origin = resolved.origin, !quiet {
        StandardError.write("shard \(resolved.shard) from \(origin)")
      }
      return resolved.shard
    } catch {
      throw ValidationError(error.message)
    }
  }

  /// The warning a traced `batch` prints before it loads its sources when their replay
  /// plans (`estimate` bytes, `SourceLoader.estimatedPlanBytes`) are likely more than the
  /// process may use (`limit`, `MemoryLimit.current()`); nil when they are not. Without
  /// the trace, such logs are replayed in blocks (`SourceLoader.spilledPoints`).
  static func memoryWarning(estimate: Int, limit: UInt64) -> String? {
    guard estimate > 0, UInt64(estimate) > limit else { return nil }
    return
      "warning: with trace.csv, batch holds a replay plan for every log source point in memory, about \(megabytes(estimate)) here (half the size of each point's donation and visit logs), more than the \(megabytes(limit)) this process may use (the machine's memory, or its cgroup's limit when smaller): it may be killed for lack of memory. Without the trace, such logs are replayed in blocks of people (docs/batch.md, \"Memory\")."
  }

  /// The note of a log source point replayed in blocks of people.
  static func blocksNote(_ source: SpilledLogSource, budget: Int) -> String {
    "replayed in \(source.blockCount) block\(source.blockCount == 1 ? "" : "s") of people from a spill on disk: its plan would take about \(megabytes(source.estimatedPlanBytes)), and the log points' plans together more than half the memory budget, \(megabytes(budget)) (--max-memory); the reports are the same bytes"
  }

  /// `bytes` in MB (10^6), whole; under 1 MB in kB (10^3), and under 1 kB in bytes.
  static func megabytes<N: BinaryInteger>(_ bytes: N) -> String {
    let value = Double(bytes)
    if value >= 1e6 { return NumberFormat.format(value / 1e6, decimals: 0) + " MB" }
    if value >= 1e3 { return NumberFormat.format(value / 1e3, decimals: 0) + " kB" }
    return "\(bytes) bytes"
  }

  /// Whether `a` and `b` name the same folder (`OutputClaim.canonical`: after `.`, `..`
  /// and symbolic links in the part that exists).
  static func sameFolder(_ a: String, _ b: String) -> Bool {
    OutputClaim.canonical(a) == OutputClaim.canonical(b)
  }

  /// Prints the report tables of an output folder, as `smartstack report` does, with
  /// the strategies labelled by `registry`, from the files its manifest lists and after
  /// checking them against it (`ManifestCheck`; a mismatch exits 65).
  static func printTables(directory: String, registry: StrategyRegistry, verbose: Bool) throws {
    do {
      try reportingErrors {
        let files = try ManifestCheck.read(directory)
        func table(_ name: String) throws -> CSVTable? {
          guard let file = files.first(where: { $0.name == name }) else { return nil }
          return try CSVTable.read(bytes: file.bytes, file: directory + "/" + name)
        }
        guard let runs = try table("runs.csv") else {
          for evaluation in EvaluationTable.all {
            if let found = try table(evaluation.file) {
              StandardOutput.write(try evaluation.markdown(found))
              return
            }
          }
          throw InputFileError(path: directory + "/runs.csv", reason: "not listed in manifest.json")
        }
        StandardOutput.write(
          try ReportTables.markdown(
            runs: runs, summary: table("summary.csv"), paired: table("paired.csv"),
            registry: registry, verbose: verbose))
      }
    } catch let error as BatchError {
      StandardError.write("error: \(error.description)")
      throw Exit.dataError
    }
  }
}
