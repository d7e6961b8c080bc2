import ArgumentParser
import Foundation
import SmartStackKit

/// The exit codes of the command line (sysexits(3)).
enum Exit {
  /// Bad usage: an unknown option, a malformed flag value.
  static let usage = ExitCode(64)
  /// Bad input data: a reader found problems in a file.
  static let dataError = ExitCode(65)
  /// An input file that does not exist or cannot be read.
  static let noInput = ExitCode(66)
  /// An output file or folder that cannot be created, or that exists and is not a
  /// regular file or folder.
  static let cannotCreate = ExitCode(73)
  /// The output folder is locked by another run (EX_TEMPFAIL: try again later).
  static let busy = ExitCode(75)
}

/// Standard error, unbuffered.
enum StandardError {
  static func write(_ text: String) {
    FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
  }
}

/// Standard output, written in one piece.
enum StandardOutput {
  static func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }
}

/// Runs `body` and turns the library's errors into messages on stderr and exit codes.
///
/// `DiagnosticList` prints every diagnostic (`FILE:LINE:COLUMN: message`) and exits 65;
/// `InputFileError` exits 66; `OutputFileError` exits 73; `FolderBusyError` and
/// `OutputFileBusyError` exit 75.
/// Anything else is rethrown for ArgumentParser to report.
func reportingErrors<T>(_ body: () throws -> T) throws -> T {
  do {
    return try body()
  } catch {
    try report(error)
  }
}

/// Runs `body` as `reportingErrors` does, with a refusal of the replay options
/// (`ReplayError`: a strategy, window or option the log cannot be replayed with) reported
/// as bad usage (a `ValidationError`: its message and the usage line, exit 64). How
/// `replay` builds its plans, in memory or in blocks.
func reportingReplayErrors<T>(_ body: () async throws -> T) async throws -> T {
  do {
    return try await body()
  } catch let error as ReplayError {
    throw ValidationError(error.description)
  } catch {
    try report(error)
  }
}

/// Reports `error` as `reportingErrors` does, for an error caught where its body could
/// not run inside that function's closure: always throws (an `Exit`, or `error` itself).
func report(_ error: any Error) throws -> Never {
  switch error {
  case let list as DiagnosticList:
    StandardError.write(list.description)
    throw Exit.dataError
  case let diagnostic as Diagnostic:
    StandardError.write(diagnostic.description)
    throw Exit.dataError
  case let error as InputFileError:
    StandardError.write(error.description)
    throw Exit.noInput
  case let error as OutputFileError:
    StandardError.write(error.description)
    throw Exit.cannotCreate
  case let error as FolderBusyError:
    StandardError.write(error.description)
    throw Exit.busy
  case let error as OutputFileBusyError:
    StandardError.write(TerminalText.escapingControls(error.description))
    throw Exit.busy
  default:
    throw error
  }
}
