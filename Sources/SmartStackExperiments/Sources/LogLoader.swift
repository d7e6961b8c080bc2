import SmartStackBase
import SmartStackData
import SmartStackEngine

/// The one reader of a log source's input files, for `smartstack replay` and for batch's
/// log sources (`SourceLoader`): takes a `LogInput` (the design's spelling of a log
/// source) and returns what a replay needs (`LoadedLog`).
///
/// Every file is read by path: the donation log and a visit log are mapped and read on
/// every core (`DonationLog.read(path:…)`, `VisitLog.read(path:…)`), and every file is
/// hashed mapped (`FileDigest`: its CRC-32) on a thread of its own while it is
/// read, so no input is ever held whole as an array.
///
/// A loader keeps what it has read: a file used by several source points (a sweep) is
/// read and hashed once. A parsed file is keyed by what changes its meaning: a donation
/// log by path, format and time zone; a visit log, timelines, scores and context by path
/// and time zone; a stack file by path; a digest by path. The caches are only looked up,
/// never iterated, so the order of a dictionary never reaches an output.
public struct LogLoader {
  private var logs: [String: (log: DonationLog, localTimes: LocalTimeReport)] = [:]
  private var visitLogs: [String: VisitLog] = [:]
  private var stacks: [String: StackSpec] = [:]
  private var timelines: [String: TimelineFile] = [:]
  private var scores: [String: ScoreFile] = [:]
  private var contexts: [String: ContextLog] = [:]
  private var digests: [String: FileDigest] = [:]
  /// Spilled donation logs (key: as `logs`') and visit logs (key: the donation log's key
  /// and the visit log's path), shared by the points of a batch that read the same files:
  /// finished spills are only read (`SharedSpill`).
  private var donationSpills: [String: DonationSpill] = [:]
  private var visitSpills: [String: VisitSpill] = [:]
  /// The files parsed so far, as resolved, in the order they were parsed; a file taken
  /// from the cache is not listed again.
  public private(set) var parsed: [String] = []
  /// The files hashed so far, as resolved, in the order of the inputs that named them;
  /// each at most once.
  public private(set) var hashed: [String] = []

  public init() {}

  /// The input files of `input`, read (or taken from what this loader read before), and
  /// the replay options they make: zone, horizon, warm-up, visits, stack, timelines,
  /// scores, context and `engine`; with `input.split`, the scored window of its point.
  ///
  /// - Parameter checkLocalTimes: Called with the log's naive local times right after the
  ///   log is read, before any other file (`replay` prints its warnings there, or throws
  ///   them under `--strict-local-times`); not called for a log taken from the cache.
  /// - Throws: `UnknownTimeZone` for a zone name that is not known; the readers' errors
  ///   (`InputFileError`, `DiagnosticList` with every problem of the first bad file, in
  ///   the order log, visits, stack, timelines, scores, context); whatever
  ///   `checkLocalTimes` throws; `DiagnosticList` located at the split when the split
  ///   does not fit the log.
  public mutating func load(
    _ input: LogInput, engine: EngineOptions = EngineOptions(),
    checkLocalTimes: (LocalTimeReport) throws -> Void = { _ in }
  ) throws -> LoadedLog {
    try load(input, engine: engine, deferringVisits: false, checkLocalTimes: checkLocalTimes)
  }

  /// `load(_:engine:checkLocalTimes:)`, with `deferringVisits` true to leave a visit log
  /// file unread: `options.visits` then names it with no rows, and
  /// `LoadedLog.deferredVisits` gives its path, for a caller that builds its plan's
  /// donations first, lets go of the donation log and only then reads the visit log
  /// (`LoadedLog.takeVisits`: the two logs are never held at once). Its problems are then
  /// reported when the caller reads it, after every other file's. `package`: a plan built
  /// from the options without `takeVisits` would have no visits, so only the toolkit's
  /// `replay` and `batch` defer.
  package mutating func load(
    _ input: LogInput, engine: EngineOptions = EngineOptions(), deferringVisits: Bool,
    checkLocalTimes: (LocalTimeReport) throws -> Void = { _ in }
  ) throws -> LoadedLog {
    let (zone, files, hashing, unhashed, baseOptions) = try start(input, engine: engine)
    var options = baseOptions
    let (log, localTimes) = try readLog(input, zone: zone, checkLocalTimes: checkLocalTimes)
    var deferredVisits: String? = nil
    switch input.visits {
    case .donations: options.visits = .donations
    case .sessions(let minutes): options.visits = .sessions(gapMinutes: minutes)
    case .file(let file) where deferringVisits:
      deferredVisits = file.resolved
      options.visits = .log(VisitLog(file: file.resolved, users: [], times: []))
    case .file(let file):
      options.visits = .log(
        try Self.cached(&visitLogs, file, zone: input.timezone, parsed: &parsed) {
          try VisitLog.read(path: $0, zone: zone)
        })
    }
    try readOtherFiles(input, zone: zone, into: &options)
    if let point = input.split {
      options.scoredWindow = try Self.scoredWindow(point, zone: zone, first: log.timestamps.min(), last: log.timestamps.max())
    }
    let (inputs, fileDigests) = try digests(of: files, hashing: hashing, unhashed: unhashed)
    return LoadedLog(
      log: log, options: options, localTimes: localTimes, inputs: inputs, digests: fileDigests,
      deferredVisits: deferredVisits)
  }

  /// The input files of `input` for a replay in blocks of people (`SpilledLog`): the
  /// donation log and a visit log are read once each and held on disk in buckets of
  /// people (`DonationSpill`, `VisitSpill`), not in memory; every other file is read as
  /// `load(_:engine:checkLocalTimes:)` reads it, and every file is hashed as it does. A
  /// donation log spilled before by this loader (same path, format, zone and bucket size),
  /// and a visit log spilled with it, are not read again: the spills are shared (a sweep's
  /// points in blocks read their logs once), and `checkLocalTimes` is not called again
  /// (`DonationSpill.localTimes` holds the report).
  ///
  /// - Parameter usersPerBucket: people per bucket of the spills (the finest blocks).
  /// - Throws: what `load(_:engine:checkLocalTimes:)` throws for the same files, in the
  ///   same order (log, visits, stack, timelines, scores, context); `OutputFileError`
  ///   when the spill cannot be written.
  package mutating func spill(
    _ input: LogInput, engine: EngineOptions = EngineOptions(), usersPerBucket: Int = 256,
    checkLocalTimes: (LocalTimeReport) throws -> Void = { _ in }
  ) throws -> SpilledLog {
    let (zone, files, hashing, unhashed, baseOptions) = try start(input, engine: engine)
    var options = baseOptions
    let key = "\(input.log.resolved)\u{0}\(input.format?.rawValue ?? "")\u{0}\(input.timezone)\u{0}\(usersPerBucket)"
    let donations: DonationSpill
    if let cached = donationSpills[key] {
      donations = cached
    } else {
      donations = try DonationSpill.read(
        path: input.log.resolved, format: input.format, timeZone: zone, usersPerBucket: usersPerBucket)
      parsed.append(input.log.resolved)
      try checkLocalTimes(donations.localTimes)
      donationSpills[key] = donations
    }
    var visits: VisitSpill? = nil
    switch input.visits {
    case .donations: options.visits = .donations
    case .sessions(let minutes): options.visits = .sessions(gapMinutes: minutes)
    case .file(let file):
      let visitKey = key + "\u{0}" + file.resolved
      if let cached = visitSpills[visitKey] {
        visits = cached
      } else {
        visits = try VisitSpill.read(path: file.resolved, zone: zone, people: donations)
        parsed.append(file.resolved)
        visitSpills[visitKey] = visits
      }
      options.visits = .log(VisitLog(file: file.resolved, users: [], times: []))
    }
    try readOtherFiles(input, zone: zone, into: &options)
    if let point = input.split {
      options.scoredWindow = try Self.scoredWindow(
        point, zone: zone, first: donations.firstTimestamp, last: donations.lastTimestamp)
    }
    let (inputs, fileDigests) = try digests(of: files, hashing: hashing, unhashed: unhashed)
    return SpilledLog(
      donations: donations, visits: visits, options: options, inputs: inputs, digests: fileDigests)
  }

  /// What both ways of loading begin with: the zone, the input files, their hashing
  /// started in the background, and the options the input gives before any file is read.
  ///
  /// - Throws: `UnknownTimeZone` for a zone name that is not known.
  private func start(_ input: LogInput, engine: EngineOptions) throws -> (
    zone: ZoneRules, files: [(role: String, path: ConfigPath)], hashing: BackgroundDigests, unhashed: [String],
    options: ReplayOptions
  ) {
    guard let zone = ZoneRules(identifier: input.timezone) else {
      throw UnknownTimeZone(identifier: input.timezone)
    }
    let files = input.files
    let (hashing, unhashed) = startHashing(files)
    var options = ReplayOptions()
    options.zone = zone
    options.horizonSeconds = input.horizonSeconds
    options.warmupDays = input.warmupDays
    options.engine = engine
    return (zone, files, hashing, unhashed, options)
  }

  /// The stack, timelines, scores and context files of `input` into `options`, read or
  /// from the cache, in that order.
  private mutating func readOtherFiles(_ input: LogInput, zone: ZoneRules, into options: inout ReplayOptions) throws {
    switch input.stack {
    case .all: options.stack = .all
    case .top(let n): options.stack = .top(n)
    case .file(let file):
      options.stack = .fixed(
        try Self.cached(&stacks, file, parsed: &parsed) { try StackSpec.read(path: $0) })
    }
    if let file = input.timelines {
      options.timelines = try Self.cached(&timelines, file, zone: input.timezone, parsed: &parsed) {
        try TimelineFile.read(path: $0, timeZone: zone)
      }
    }
    if let file = input.scores {
      options.scores = try Self.cached(&scores, file, zone: input.timezone, parsed: &parsed) {
        try ScoreFile.read(path: $0, zone: zone)
      }
    }
    if let file = input.context {
      options.context = try Self.cached(&contexts, file, zone: input.timezone, parsed: &parsed) {
        try ContextLog.read(path: $0, zone: zone)
      }
    }
  }

  /// The scored window of a split's point for a log from `first` to `last` (nil for a
  /// log without rows).
  ///
  /// - Throws: `DiagnosticList` located at the split when the split does not fit the log.
  private static func scoredWindow(_ point: SplitPoint, zone: ZoneRules, first: Int64?, last: Int64?) throws -> ScoredWindow? {
    guard let first, let last else { return nil }
    do {
      return try point.split.window(
        point: point.index, zone: zone, firstDay: zone.dayIndex(at: Instant(milliseconds: first)),
        lastDay: zone.dayIndex(at: Instant(milliseconds: last)))
    } catch {
      throw DiagnosticList([point.location.diagnostic(error.message)])
    }
  }

  /// The files that `files` name and this loader has not hashed, each once, hashed in the
  /// background (`BackgroundDigests`) while the caller reads them.
  private func startHashing(_ files: [(role: String, path: ConfigPath)]) -> (BackgroundDigests, [String]) {
    var unhashed: [String] = []
    for file in files
    where digests[file.path.resolved] == nil && !unhashed.contains(file.path.resolved) {
      unhashed.append(file.path.resolved)
    }
    return (BackgroundDigests(unhashed), unhashed)
  }

  /// Waits for `hashing`, keeps its digests, and gives every file of `files` as a source
  /// input and its digest, in order.
  private mutating func digests(
    of files: [(role: String, path: ConfigPath)], hashing: BackgroundDigests, unhashed: [String]
  ) throws -> ([SourceInput], [FileDigest]) {
    for (path, result) in zip(unhashed, hashing.wait()) {
      digests[path] = try result.get()
      hashed.append(path)
    }
    var inputs: [SourceInput] = []
    var fileDigests: [FileDigest] = []
    for file in files {
      let digest = digests[file.path.resolved]!  // every file was hashed above or before
      inputs.append(SourceInput(role: file.role, path: file.path.written, hash: digest.hexHash))
      fileDigests.append(digest)
    }
    return (inputs, fileDigests)
  }

  /// Lets go of every parsed file at `path` (as resolved), under any format and zone, so
  /// that the caller's copy is the last one: a plan built from it can then let the visit
  /// log's rows go as it spreads them. Digests stay (they are small). O(cached files); the
  /// dictionaries' order reaches nothing (only entries are removed).
  public mutating func forget(_ path: String) {
    func matches(_ key: String) -> Bool { key == path || key.hasPrefix(path + "\u{0}") }
    for key in logs.keys where matches(key) { logs[key] = nil }
    for key in visitLogs.keys where matches(key) { visitLogs[key] = nil }
    for key in stacks.keys where matches(key) { stacks[key] = nil }
    for key in timelines.keys where matches(key) { timelines[key] = nil }
    for key in scores.keys where matches(key) { scores[key] = nil }
    for key in contexts.keys where matches(key) { contexts[key] = nil }
    for key in donationSpills.keys where matches(key) { donationSpills[key] = nil }
    for key in visitSpills.keys where matches(key) || key.hasSuffix("\u{0}" + path) { visitSpills[key] = nil }
  }

  /// The donation log of `input`, read or from the cache (key: path, format, zone).
  private mutating func readLog(
    _ input: LogInput, zone: ZoneRules, checkLocalTimes: (LocalTimeReport) throws -> Void
  ) throws -> (DonationLog, LocalTimeReport) {
    let path = input.log.resolved
    let key = "\(path)\u{0}\(input.format?.rawValue ?? "")\u{0}\(input.timezone)"
    if let cached = logs[key] { return cached }
    var localTimes = LocalTimeReport()
    let log = try DonationLog.read(
      path: path, format: input.format, timeZone: zone, localTimes: &localTimes)
    parsed.append(path)
    try checkLocalTimes(localTimes)
    logs[key] = (log, localTimes)
    return (log, localTimes)
  }

  /// The file `file` read by `read` (given its resolved path) and added to `parsed`, or
  /// from `cache` when read before under the same path and, when given, zone.
  private static func cached<Value>(
    _ cache: inout [String: Value], _ file: ConfigPath, zone: String? = nil, parsed: inout [String],
    _ read: (String) throws -> Value
  ) throws -> Value {
    let key = zone.map { "\(file.resolved)\u{0}\($0)" } ?? file.resolved
    if let value = cache[key] { return value }
    let value = try read(file.resolved)
    parsed.append(file.resolved)
    cache[key] = value
    return value
  }
}

/// A log source's inputs, read by `LogLoader`.
public struct LoadedLog: Sendable {
  public var log: DonationLog
  /// The replay options the inputs make (seed and replicate left at 0, rules not set).
  public var options: ReplayOptions
  /// The log's naive local times (`LocalTimeReport`), for the warnings a command prints.
  public var localTimes: LocalTimeReport
  /// Every input file in the order log, visits, stack, timelines, scores, context, with
  /// its role, its path as written and its hash.
  public var inputs: [SourceInput]
  /// The same files' digests (path as resolved, size, hash), in the same order.
  public var digests: [FileDigest]
  /// The visit log's path (as resolved) when `load` was asked to defer it
  /// (`deferringVisits`), else nil: `takeVisits()` reads it.
  package var deferredVisits: String? = nil

  /// The visits, for a plan built from the donations first (`ReplayPlan.addVisits`): the
  /// deferred visit log read now (once the allocator returns big freed blocks at once:
  /// `AllocatorPolicy`), else `options.visits`. `options.visits` is left `.donations` and
  /// the deferral cleared, so the plan alone holds the rows and can let each chunk go.
  ///
  /// - Throws: the visit log reader's errors (`InputFileError`, `DiagnosticList`).
  package mutating func takeVisits() throws -> ReplayOptions.Visits {
    var visits = options.visits
    options.visits = .donations
    if let path = deferredVisits {
      deferredVisits = nil
      AllocatorPolicy.returnBigBlocksWhenFreed()
      visits = .log(try VisitLog.read(path: path, zone: options.zone))
    }
    return visits
  }
}

/// A log source's inputs for a replay in blocks of people (`LogLoader.spill`): the
/// donation log and a visit log on disk, the other files read, and the replay options.
package struct SpilledLog {
  package var donations: DonationSpill
  /// The visit log's rows, when `options.visits` names a visit log.
  package var visits: VisitSpill?
  /// The replay options the inputs make (a visit log named without its rows).
  package var options: ReplayOptions
  /// Every input file in the order log, visits, stack, timelines, scores, context, with
  /// its role, its path as written and its hash; and the same files' digests.
  package var inputs: [SourceInput]
  package var digests: [FileDigest]

  /// Block `people` of the plan (`ReplayPlan(block:of:visits:options:)`) with `options`.
  package func plan(_ people: Range<Int>, options: ReplayOptions) throws -> ReplayPlan {
    try ReplayPlan(block: people, of: donations, visits: visits, options: options)
  }
}

/// A time zone name that `ZoneRules` does not know; callers word the message (a
/// command-line error, a located config diagnostic).
public struct UnknownTimeZone: Error, Sendable, Hashable {
  public var identifier: String
}

extension LogInput {
  /// The input files, each with its role, in the order log, visits, stack, timelines,
  /// scores, context (the order of `SourceInput`s and of a manifest's inputs).
  public var files: [(role: String, path: ConfigPath)] {
    var files: [(role: String, path: ConfigPath)] = [("log", log)]
    if case .file(let path) = visits { files.append(("visits", path)) }
    if case .file(let path) = stack { files.append(("stack", path)) }
    if let timelines { files.append(("timelines", timelines)) }
    if let scores { files.append(("scores", scores)) }
    if let context { files.append(("context", context)) }
    return files
  }
}
