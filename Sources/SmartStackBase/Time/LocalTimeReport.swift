/// What a naive local time (`2026-03-29 02:30:00`, no `Z`, no offset) is in its zone.
public enum LocalTimeKind: UInt8, Sendable, Hashable {
  /// The wall clock shows it exactly once.
  case regular
  /// It never happens: the clocks jump over it (spring forward). Read with the offset in
  /// force before the gap (`ZoneRules.instant(fromLocal:)`).
  case gap
  /// It happens twice: the clocks are set back over it. Read as the earlier instant.
  case fold
}

extension ZoneRules {
  /// Whether the wall-clock time `localMilliseconds` exists once, never (a gap) or twice
  /// (a fold) in this zone; `instant(fromLocal:)` says which instant each is read as.
  ///
  /// - Complexity: O(log t).
  @inlinable public func kind(ofLocal localMilliseconds: Int64) -> LocalTimeKind {
    let i = firstIntervalEnding(after: localMilliseconds)
    if i > 0 && localMilliseconds < starts[i] &+ offsets[i] { return .gap }
    if i + 1 < starts.count && localMilliseconds >= starts[i + 1] &+ offsets[i + 1] { return .fold }
    return .regular
  }

  /// `instant(parsing:)`, also setting `local` to the kind of a naive time (nil for a
  /// timestamp with `Z` or an offset, or one that does not parse).
  ///
  /// - Complexity: O(n + log t).
  @inlinable public func instant(
    parsing bytes: UnsafeBufferPointer<UInt8>, local: inout LocalTimeKind?
  ) -> Result<Instant, ISO8601.ParseError> {
    var ignored = UTCOffset.none
    return instant(parsing: bytes, local: &local, utcOffset: &ignored)
  }

  /// `instant(parsing:local:)`, also setting `utcOffset` to the offset the text writes
  /// (`ISO8601.parse(_:utcOffset:)`): the log readers' form, one pass over the text.
  ///
  /// - Complexity: O(n + log t).
  @inlinable package func instant(
    parsing bytes: UnsafeBufferPointer<UInt8>, local: inout LocalTimeKind?, utcOffset: inout Int32
  ) -> Result<Instant, ISO8601.ParseError> {
    switch ISO8601.parse(bytes, utcOffset: &utcOffset) {
    case .success(let timestamp):
      if case .local(let milliseconds) = timestamp { local = kind(ofLocal: milliseconds) } else { local = nil }
      return checkedInstant(timestamp)
    case .failure(let error):
      local = nil
      return .failure(error)
    }
  }
}

/// The naive local times a reader met: how many, how many fell in a gap or a fold of the
/// zone, and where the first of each is (README, "Local time": the rule). Readers fill
/// it; commands turn it into warnings on standard error, or errors with
/// `--strict-local-times` (`messages(zone:zoneGiven:)`).
public struct LocalTimeReport: Sendable, Hashable {
  /// A line and column, 1-based, as in diagnostics.
  public struct Place: Sendable, Hashable {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) {
      self.line = line
      self.column = column
    }
  }

  public private(set) var naive = 0
  public private(set) var gaps = 0
  public private(set) var folds = 0
  public private(set) var firstNaive: Place? = nil
  public private(set) var firstGap: Place? = nil
  public private(set) var firstFold: Place? = nil

  public init() {}

  /// True when no naive time was met.
  public var isEmpty: Bool { naive == 0 }

  /// Counts one naive time of kind `kind`; `place` is evaluated only for the first of a kind.
  public mutating func note(_ kind: LocalTimeKind, at place: () -> Place) {
    naive += 1
    var here: Place? = nil
    func get() -> Place {
      if let here { return here }
      let p = place()
      here = p
      return p
    }
    if firstNaive == nil { firstNaive = get() }
    switch kind {
    case .regular: break
    case .gap:
      gaps += 1
      if firstGap == nil { firstGap = get() }
    case .fold:
      folds += 1
      if firstFold == nil { firstFold = get() }
    }
  }

  /// Adds the report of a later part of the same file, whose lines were counted from 1 at
  /// line `lineOffset + 1` of the file: the counts add, and a first place is the part's
  /// (moved down by `lineOffset`) only when this report has none of that kind.
  package mutating func append(_ part: LocalTimeReport, lineOffset: Int) {
    func moved(_ place: Place?) -> Place? { place.map { Place(line: $0.line + lineOffset, column: $0.column) } }
    naive += part.naive
    gaps += part.gaps
    folds += part.folds
    firstNaive = firstNaive ?? moved(part.firstNaive)
    firstGap = firstGap ?? moved(part.firstGap)
    firstFold = firstFold ?? moved(part.firstFold)
  }

  /// The messages to print, each with the first place of its kind: one for the times in a
  /// gap, one for the times in a fold, and, when `zoneGiven` is false (UTC, the default
  /// `--timezone`), one for naive times read in UTC. A command prints each as
  /// `FILE:LINE:COLUMN: warning: TEXT`, or throws it as an error when strict.
  public func messages(zone: String, zoneGiven: Bool) -> [(place: Place, text: String)] {
    var out: [(Place, String)] = []
    func count(_ n: Int) -> String { n == 1 ? "1 naive timestamp names" : "\(n) naive timestamps name" }
    if let p = firstGap {
      out.append(
        (p, "\(count(gaps)) a local time that does not exist in \(zone) "
          + "(the clocks jump over it), the first here: each is read with the offset in force before the jump"))
    }
    if let p = firstFold {
      out.append(
        (p, "\(count(folds)) a local time that occurs twice in \(zone) "
          + "(the clocks are set back), the first here: each is read as the earlier of the two instants"))
    }
    if !zoneGiven, let p = firstNaive {
      out.append(
        (p, "\(naive == 1 ? "1 naive timestamp" : "\(naive) naive timestamps") (without Z or an "
          + "offset) read in UTC, the default --timezone, the first here: give --timezone if they "
          + "are another zone's local times"))
    }
    return out
  }
}
