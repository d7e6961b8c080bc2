import Foundation
import SwiftProtobuf
import SmartStackBase

/// Imports Apple Biome `App.InFocus` and `App.Intent` SEGB files as a donation log and a
/// visit log (docs/importers.md, "biome").
///
/// **Records.** Every record of every file is one row (`counts.rows`), accounted for once:
/// `rows == donations + visits + counted + dropped total`.
///
/// - Deleted records (state 3) and records of any other state but written (1) are dropped
///   and counted (`deleted`, `other_state`); their CRC and payload are not looked at.
/// - A written record whose stored CRC-32 is not its payload's, whose payload is not a
///   protobuf message, or whose time is not a finite instant in 1970...2100 is a bad row:
///   the import fails listing each as `FILE: offset N: message` (up to `limit`), or, with
///   `skipBadRows`, drops and counts it (`bad_rows`) and lists it in `warnings`.
/// - A record without a bundle identifier is dropped and counted (`no_bundle_id`).
/// - `App.InFocus`, field `starting` = 1 (the app came to the foreground): a visit when the
///   app is one of `launcherApps` (the Home Screen came to the front), else a donation of
///   `kind` = bundle id. `starting` = 0 and any other or missing value are counted.
/// - `App.Intent`: a donation of `kind` = bundle id, `intent` = the intent class, and
///   parameters `verb` (the intent verb) and what `InteractionArchive` takes from the
///   archived interaction. An archive that cannot be decoded, or is over 16 MiB
///   (`SQLiteDatabase.maximumValueBytes`, left unread), is counted (event `interactions
///   not decoded`) and the donation is kept without those parameters.
/// - A donation a log cannot hold (a NUL byte in a field, a row over 1 MiB:
///   `DonationFieldCheck`) is a bad row, like a record whose CRC is wrong.
///
/// **Times.** The record's own event time (`absolute_time`, field 4 of `App.InFocus`,
/// field 1 of `App.Intent`), else the SEGB record's time when the field is missing, is
/// Cocoa time, seconds since 2001-01-01T00:00:00Z: Unix time is it plus 978 307 200,
/// exactly. It is truncated to whole milliseconds (toward the past), like every instant
/// the toolkit reads. Biome stores no UTC offset: the outputs are in UTC.
///
/// All donations and visits are of one `user` (a Biome folder is one device).
public struct BiomeImporter: Sendable {
  /// Bundle identifiers whose foreground records are Home Screen visits.
  public var launcherApps: Set<String>
  public var skipBadRows: Bool
  /// The user of every donation and visit.
  public var user: String
  /// The most bad rows listed (all are counted).
  public var limit: Int
  /// Told the bytes of SEGB files read (`ImportProgress`), or nil.
  public var progress: ImportProgress? = nil
  /// The unit of `progress`.
  public static let progressUnit = ImportProgress.Unit.bytes

  /// The event names of `counts.events`, in their fixed order.
  public static let eventNames = [
    "App.InFocus foreground", "App.InFocus background", "App.InFocus other", "App.Intent",
    "interactions not decoded",
  ]
  /// The reasons of `counts.dropped`, in their fixed order.
  public static let droppedReasons = ["deleted", "other_state", "no_bundle_id", "bad_rows"]
  /// SpringBoard, iOS's Home Screen app.
  public static let springBoard = "com.apple.springboard"
  /// Seconds from 1970-01-01T00:00:00Z to 2001-01-01T00:00:00Z.
  public static let cocoaEpochOffset: Int64 = 978_307_200

  public init(
    launcherApps: [String] = [BiomeImporter.springBoard], skipBadRows: Bool = false,
    user: String = Donation.defaultUser, limit: Int = DiagnosticCollector.defaultLimit
  ) {
    self.launcherApps = Set(launcherApps)
    self.skipBadRows = skipBadRows
    self.user = user
    self.limit = limit
  }

  /// What an import made, with the problems of the rows skipped (`skipBadRows`), each
  /// `FILE: offset N: message`, up to `limit`.
  public struct Output: Sendable {
    public var result: ImportResult
    public var warnings: [String]
    /// True when more rows were skipped than `warnings` lists.
    public var warningsTruncated: Bool
  }

  /// Reads `files` in their order, one file in memory at a time.
  ///
  /// - Throws: `InputFileError` when a file cannot be read; `ArchiveError` naming the file
  ///   for a truncated or corrupt SEGB file, and (file empty, one line per problem) for bad
  ///   rows without `skipBadRows`.
  ///
  /// - Parameter context: the context streams' files to read too (`BiomeContextReading`:
  ///   the output's `result.context`), or nil to read none; they change no log or count.
  public func read(_ files: BiomeStreamFiles, name: String, context: BiomeContextFiles? = nil) throws -> Output {
    var state = State(importer: self)
    if let progress {
      state.totalBytes = files.files.reduce(0) { $0 + Self.size(of: $1.path) }
      progress.report(0, state.totalBytes)
    }
    for file in files.files {
      try state.add(bytes: FileIO.readBytes(file.path), file: file.path, stream: file.stream)
    }
    progress?.report(state.totalBytes, state.totalBytes)
    if let context {
      state.context = ImportedContext(
        sources: BiomeContextStream.allCases.map { "\($0.rawValue) (searched under \(context.path))" },
        recordsOffsets: false)
      for file in context.files {
        try state.addContext(bytes: FileIO.readBytes(file.path), file: file.path, stream: file.stream)
      }
    }
    return try state.finish(name: name)
  }

  /// The size of the file at `path` in bytes, 0 when unknown.
  static func size(of path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
  }

  /// Reads one SEGB file's `bytes` of `stream`; `file` names it in messages.
  public func read(bytes: [UInt8], file: String, stream: BiomeStream) throws -> Output {
    var state = State(importer: self)
    try state.add(bytes: bytes, file: file, stream: stream)
    return try state.finish(name: file)
  }

  /// The Unix time in milliseconds of Cocoa time `seconds`, or nil when it is not finite
  /// or not in 1970...2100.
  public static func milliseconds(cocoa seconds: Double) -> Int64? {
    // 2101-01-01T00:00:00Z (Unix 4 133 980 800) in Cocoa seconds: the first instant too late.
    let end = 4_133_980_800.0 - Double(cocoaEpochOffset)
    guard seconds.isFinite, seconds >= -Double(cocoaEpochOffset), seconds < end else { return nil }
    return Int64((seconds * 1000).rounded(.down)) + cocoaEpochOffset * 1000
  }

  /// The rows read so far.
  struct State {
    let importer: BiomeImporter
    var donations: [Donation] = []
    var visitTimes: [Int64] = []
    var counts = ImportCounts()
    var events = [Int](repeating: 0, count: BiomeImporter.eventNames.count)
    var dropped = [Int](repeating: 0, count: BiomeImporter.droppedReasons.count)
    var problems: [String] = []
    var badRows = 0
    /// The bytes of the files read before the current one, and of all files
    /// (`importer.progress`).
    var bytesBefore = 0
    var totalBytes = 0
    /// Whether the record being taken had its interaction left out (`ProtobufFieldTrim`).
    var interactionTooLarge = false
    /// The context read (`addContext`), nil when none is read.
    var context: ImportedContext? = nil
    /// Bad records of the context streams: listed in `problems` like `badRows`, never
    /// counted in `counts`.
    var contextBadRows = 0

    init(importer: BiomeImporter) { self.importer = importer }

    mutating func add(bytes: [UInt8], file: String, stream: BiomeStream) throws {
      let segb = try Self.segb(bytes, file: file)
      for record in segb.records {
        counts.rows += 1
        if let progress = importer.progress, counts.rows % ImportProgress.stride == 0 {
          progress.report(min(bytesBefore + record.offset, totalBytes), totalBytes)
        }
        switch record.state {
        case .deleted: dropped[0] += 1
        case .other: dropped[1] += 1
        case .written:
          if let problem = take(record, of: segb, stream: stream) {
            badRows += 1
            if problems.count < importer.limit { problems.append("\(TerminalText.escapingControls(file)): offset \(record.offset): \(problem)") }
          }
        }
      }
      bytesBefore += bytes.count
      importer.progress?.report(min(bytesBefore, totalBytes), totalBytes)
    }

    /// `bytes` read as a SEGB file; its error names `file`.
    static func segb(_ bytes: [UInt8], file: String) throws -> SEGBFile {
      do {
        return try SEGBFile(bytes: bytes)
      } catch {
        throw error.naming(file)
      }
    }

    /// Takes a written record; returns its problem when it is a bad row.
    mutating func take(_ record: SEGBRecord, of segb: SEGBFile, stream: BiomeStream) -> String? {
      if let problem = crcProblem(record) { return problem }
      // A field over 16 MiB is left out before decoding (never copied): an interaction is
      // then counted as not decoded, any other field makes a bad row.
      let (payload, dropped) = ProtobufFieldTrim.trimming(
        segb.payload(record), limit: SQLiteDatabase.maximumValueBytes)
      let interactionField = 8
      if let field = dropped.first(where: { stream != .intent || $0 != interactionField }) {
        return "field \(field) of the payload is over \(SQLiteDatabase.maximumValueBytes) bytes (16 MiB)"
      }
      interactionTooLarge = !dropped.isEmpty
      switch stream {
      case .inFocus: return take(BiomeAppInFocusEvent.self, payload, record, stream) { $0.inFocus($1, $2) }
      case .intent: return take(BiomeAppIntentEvent.self, payload, record, stream) { $0.intent($1, $2) }
      }
    }

    /// Decodes `payload` as an `E`, checks its time and bundle id, and passes it and its
    /// time in milliseconds to `use`; returns the problem of a bad row.
    mutating func take<E: BiomeEventRecord>(
      _ type: E.Type, _ payload: [UInt8], _ record: SEGBRecord, _ stream: BiomeStream,
      _ use: (inout State, E, Int64) -> String?
    ) -> String? {
      guard let event = try? E(serializedBytes: payload) else {
        return "the payload (\(payload.count) bytes) is not a protobuf message of the \(stream.rawValue) stream"
      }
      let time = event.eventTime ?? record.time
      guard let ms = BiomeImporter.milliseconds(cocoa: time) else {
        return "the time \(time) (seconds since 2001-01-01) is not an instant in 1970...2100"
      }
      if event.bundleIdentifier.isEmpty {
        dropped[2] += 1
        return nil
      }
      return use(&self, event, ms)
    }

    /// An `App.InFocus` record with a bundle id and a valid time; returns the problem of a
    /// donation a log cannot hold (`DonationFieldCheck`).
    mutating func inFocus(_ event: BiomeAppInFocusEvent, _ ms: Int64) -> String? {
      switch event.hasStarting ? event.starting : UInt64.max {
      case 1:
        if importer.launcherApps.contains(event.bundleID) {
          visitTimes.append(ms)
        } else {
          let donation = Donation(timestamp: Instant(milliseconds: ms), user: importer.user, kind: event.bundleID)
          if let problem = DonationFieldCheck.problem(donation) { return problem }
          donations.append(donation)
        }
        events[0] += 1
      case 0:
        events[1] += 1
        counts.counted += 1
      default:
        events[2] += 1
        counts.counted += 1
      }
      return nil
    }

    /// An `App.Intent` record with a bundle id and a valid time; returns the problem of a
    /// donation a log cannot hold (`DonationFieldCheck`).
    mutating func intent(_ event: BiomeAppIntentEvent, _ ms: Int64) -> String? {
      var parameters: [Parameter] = []
      if event.hasIntentVerb, !event.intentVerb.isEmpty {
        parameters.append(Parameter("verb", event.intentVerb))
      }
      var decoded = !interactionTooLarge
      if event.hasInteraction, !event.interaction.isEmpty {
        if let archive = InteractionArchive(event.interaction) {
          parameters += archive.interactionParameters
        } else {
          decoded = false
        }
      }
      let intent = event.hasIntentClass && !event.intentClass.isEmpty ? event.intentClass : nil
      let donation = Donation(
        timestamp: Instant(milliseconds: ms), user: importer.user, kind: event.bundleID,
        intent: intent, parameters: parameters)
      if let problem = DonationFieldCheck.problem(donation) { return problem }
      events[3] += 1
      if !decoded { events[4] += 1 }
      donations.append(donation)
      return nil
    }

    /// The problem of a record whose stored CRC-32 is not its payload's, or nil.
    func crcProblem(_ record: SEGBRecord) -> String? {
      guard !record.crcMatches else { return nil }
      return "CRC-32 mismatch: the record header says 0x\(NumberFormat.hex(record.storedCRC)), the payload has 0x\(NumberFormat.hex(record.computedCRC)); the record is corrupt"
    }

    consuming func finish(name: String) throws -> Output {
      let allBadRows = badRows + contextBadRows
      if allBadRows > 0 && !importer.skipBadRows {
        var message = problems.joined(separator: "\n")
        if allBadRows > problems.count {
          message += "\n(listed the first \(problems.count) of \(allBadRows) bad records; --skip-bad-rows skips and counts them)"
        }
        throw ArchiveError(.corrupt, message)
      }
      dropped[3] = importer.skipBadRows ? badRows : 0
      counts.events = zip(BiomeImporter.eventNames, events).map { NamedCount($0, $1) }
      counts.dropped = zip(BiomeImporter.droppedReasons, dropped).map { NamedCount($0, $1) }
      let log = DonationLog(donations)
      if let order = DonationLogBuilder.stableTimeOrder(visitTimes) {
        visitTimes = DonationLogBuilder.permute(visitTimes, order)
      }
      let visits = VisitLog(
        file: name, users: Array(repeating: importer.user, count: visitTimes.count), times: visitTimes)
      counts.donations = log.count
      counts.visits = visits.count
      counts.users = log.count + visits.count > 0 ? 1 : 0
      counts.apps = log.kindNames.count
      var result = ImportResult(
        donations: log, visits: visits, counts: counts, skippedRows: DiagnosticList([]))
      if var context {
        context.unread += contextBadRows
        result.context = context.sorted()
      }
      return Output(
        result: result, warnings: importer.skipBadRows ? problems : [],
        warningsTruncated: importer.skipBadRows && allBadRows > problems.count)
    }
  }
}

/// A Biome record with an event time and a bundle identifier.
protocol BiomeEventRecord: SwiftProtobuf.Message {
  /// The record's own time (Cocoa seconds), nil when the field is missing.
  var eventTime: Double? { get }
  /// The bundle identifier, empty when missing.
  var bundleIdentifier: String { get }
}

extension BiomeAppInFocusEvent: BiomeEventRecord {
  var eventTime: Double? { hasAbsoluteTime ? absoluteTime : nil }
  var bundleIdentifier: String { bundleID }
}

extension BiomeAppIntentEvent: BiomeEventRecord {
  var eventTime: Double? { hasAbsoluteTime ? absoluteTime : nil }
  var bundleIdentifier: String { bundleID }
}
