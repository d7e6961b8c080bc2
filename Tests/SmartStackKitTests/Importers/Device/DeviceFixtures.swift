import Foundation

import SmartStackKit
@testable import SmartStackBase
@_spi(Fixtures) @testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
@testable import SmartStackBench
import SmartStackTestSupport

/// Databases for the device importer tests, built in a fresh temporary folder from the
/// SQL scripts in `Tests/Fixtures/importers` (shared with the command-line tests) through
/// the SQLite C API: no `sqlite3` command needed.
enum DeviceFixtures {
  /// A new empty temporary folder.
  static func folder() throws -> URL {
    let url = try TestFolders.fresh("device-tests")
    return url
  }

  /// Creates `name` in `folder` from `script` (an SQL text) and returns its path.
  static func database(_ name: String, in folder: URL, script: String, keepWAL: Bool = false)
    throws -> String
  {
    let path = folder.appendingPathComponent(name).path
    try SQLiteDatabase.create(at: path, script: script, keepWAL: keepWAL)
    return path
  }

  /// The text of `Tests/Fixtures/importers/NAME`.
  static func script(_ name: String) -> String {
    String(decoding: ImporterFixtures.file(name), as: UTF8.self)
  }

  /// Epoch milliseconds of an ISO 8601 instant with a zone.
  static func ms(_ text: String) -> Int64 {
    guard case .success(.absolute(let instant)) = ISO8601.parse(text) else {
      fatalError("not an absolute instant: \(text)")
    }
    return instant.milliseconds
  }
}
