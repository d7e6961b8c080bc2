import Foundation
import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// Where a replay's Home Screen visits come from, as a person writes it and as a design
/// holds it: `smartstack replay --visits TEXT` and an experiment config's `"visits":
/// "TEXT"` both read it with `VisitSource.parse`, so both accept exactly the same values;
/// the config resolves the file against its folder (`LogInput.Visits`, `File` a
/// `ConfigPath`), and `LogLoader` turns it into `ReplayOptions.Visits`.
public enum VisitChoice<File: Sendable & Hashable>: Sendable, Hashable {
  /// `donations`: one visit at each donation's instant, decided before that donation.
  case donations
  /// `sessions:MINUTES`: a visit at the first donation after a gap of MINUTES.
  case sessions(gapMinutes: Double)
  /// Anything else: a visit log (a path, as written and not checked, when read by `parse`).
  case file(File)

  /// The same choice with its file `transform(file)`.
  public func mapFile<T>(_ transform: (File) throws -> T) rethrows -> VisitChoice<T> {
    switch self {
    case .donations: return .donations
    case .sessions(let minutes): return .sessions(gapMinutes: minutes)
    case .file(let file): return .file(try transform(file))
    }
  }

  /// The same choice with its file `transform(file)`, or nil when that is nil.
  public func compactMapFile<T>(_ transform: (File) throws -> T?) rethrows -> VisitChoice<T>? {
    switch self {
    case .donations: return .donations
    case .sessions(let minutes): return .sessions(gapMinutes: minutes)
    case .file(let file): return try transform(file).map { .file($0) }
    }
  }
}

extension VisitChoice {
  /// The choice as a person writes it, `parse`'s input: `donations`, `sessions:MINUTES`
  /// (MINUTES by `NumberFormat.format`) or `file(file)`.
  public func spelled(file: (File) -> String) -> String {
    switch self {
    case .donations: return "donations"
    case .sessions(let minutes): return "sessions:\(NumberFormat.format(minutes))"
    case .file(let path): return file(path)
    }
  }
}

/// `VisitChoice` as written: `file` a path as written.
public typealias VisitSource = VisitChoice<String>

extension VisitChoice where File == String {
  /// The gaps `sessions:MINUTES` accepts: 0 < MINUTES ≤ 527,040 (366 days in minutes).
  public static var maximumGapMinutes: Double { 527_040 }

  /// Reads `donations`, `sessions:MINUTES` (MINUTES any number `Double` reads, within
  /// 0 < MINUTES ≤ `maximumGapMinutes`) or a path.
  ///
  /// - Throws: `SourceSpellingError` when `text` starts with `sessions:` and the rest is
  ///   not such a number.
  /// - Complexity: O(n) for n characters.
  public static func parse(_ text: String) throws(SourceSpellingError) -> VisitSource {
    if text == "donations" { return .donations }
    guard text.hasPrefix("sessions:") else {
      if let meant = nearMiss(text), !FileManager.default.fileExists(atPath: text) {
        throw SourceSpellingError(
          form: "sessions:MINUTES",
          requirement: "its exact spelling (did you mean '\(meant)'? no file '\(text)' exists either)",
          text: text)
      }
      return .file(text)
    }
    guard let minutes = Double(text.dropFirst("sessions:".count)), minutes > 0,
      minutes <= maximumGapMinutes
    else {
      throw SourceSpellingError(
        form: "sessions:MINUTES",
        requirement:
          "a number of minutes in 0 < MINUTES <= \(NumberFormat.format(maximumGapMinutes)) (366 days)",
        text: text)
    }
    return .sessions(gapMinutes: minutes)
  }

  /// The `sessions:` spelling `text` is a near miss of (`session:5`, `Sessions:5`), or
  /// nil. (A word without a colon, `Donations`, is a file name like any other.)
  static func nearMiss(_ text: String) -> String? {
    let lower = text.lowercased()
    guard let colon = lower.firstIndex(of: ":") else { return nil }
    let head = lower[..<colon]
    guard head.hasPrefix("ses"), head.count >= 6, head.count <= 9 else { return nil }
    return "sessions" + text.drop(while: { $0 != ":" })
  }
}

/// Which instances make up each person's stack in a replay, as a person writes it and as
/// a design holds it: `smartstack replay --stack TEXT` and an experiment config's
/// `"stack": "TEXT"` both read it with `StackSource.parse`, so both accept exactly the
/// same values; the config resolves the file against its folder (`LogInput.Stack`), and
/// `LogLoader` turns it into `ReplayOptions.Stack`.
public enum StackChoice<File: Sendable & Hashable>: Sendable, Hashable {
  /// `all`: one instance per kind the person donates.
  case all
  /// `top:N`: the person's N most donated kinds during the warm-up.
  case top(Int)
  /// Anything else: a stack file (a path, as written and not checked, when read by `parse`).
  case file(File)

  /// The same choice with its file `transform(file)`.
  public func mapFile<T>(_ transform: (File) throws -> T) rethrows -> StackChoice<T> {
    switch self {
    case .all: return .all
    case .top(let n): return .top(n)
    case .file(let file): return .file(try transform(file))
    }
  }

  /// The same choice with its file `transform(file)`, or nil when that is nil.
  public func compactMapFile<T>(_ transform: (File) throws -> T?) rethrows -> StackChoice<T>? {
    switch self {
    case .all: return .all
    case .top(let n): return .top(n)
    case .file(let file): return try transform(file).map { .file($0) }
    }
  }
}

extension StackChoice {
  /// The choice as a person writes it, `parse`'s input: `all`, `top:N` or `file(file)`.
  public func spelled(file: (File) -> String) -> String {
    switch self {
    case .all: return "all"
    case .top(let n): return "top:\(n)"
    case .file(let path): return file(path)
    }
  }
}

/// `StackChoice` as written: `file` a path as written.
public typealias StackSource = StackChoice<String>

extension StackChoice where File == String {
  /// The N that `top:N` accepts: 1...1000.
  public static var topRange: ClosedRange<Int> { 1...1_000 }

  /// Reads `all`, `top:N` (N a whole number in `topRange`, decimal digits with an optional
  /// sign) or a path.
  ///
  /// - Throws: `SourceSpellingError` when `text` starts with `top:` and the rest is not
  ///   such a number.
  /// - Complexity: O(n) for n characters.
  public static func parse(_ text: String) throws(SourceSpellingError) -> StackSource {
    if text == "all" { return .all }
    guard text.hasPrefix("top:") else { return .file(text) }
    guard let n = Int(text.dropFirst("top:".count)), topRange.contains(n) else {
      throw SourceSpellingError(
        form: "top:N",
        requirement: "a whole number N in \(topRange.lowerBound)...\(topRange.upperBound)",
        text: text)
    }
    return .top(n)
  }
}

/// A `sessions:MINUTES` or `top:N` whose number is missing or out of range. Callers word
/// the message their own way (a command-line error, a located config diagnostic) from
/// its parts.
public struct SourceSpellingError: Error, Sendable, Hashable {
  /// The form expected: `sessions:MINUTES` or `top:N`.
  public var form: String
  /// What the number must be: `a whole number N in 1...1000`.
  public var requirement: String
  /// The text as written.
  public var text: String
}
