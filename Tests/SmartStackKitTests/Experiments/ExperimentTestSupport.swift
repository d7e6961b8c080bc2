import Foundation

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
@testable import SmartStackBench
import SmartStackTestSupport

/// Temporary folders with small logs and configs for the experiment tests.
enum ExperimentFixture {
  /// Two people over two days, three kinds (hand-made; see `ReplayHandComputedTests` for
  /// the style of log).
  static let log = """
    timestamp,user,kind
    2026-03-02T08:00:00Z,u,A
    2026-03-02T08:10:00Z,u,B
    2026-03-02T09:00:00Z,u,A
    2026-03-02T09:05:00Z,u,C
    2026-03-02T10:00:00Z,v,B
    2026-03-02T10:30:00Z,v,B
    2026-03-02T11:00:00Z,v,A
    2026-03-03T08:30:00Z,u,A
    2026-03-03T08:40:00Z,u,B
    2026-03-03T09:10:00Z,u,B
    2026-03-03T10:05:00Z,v,A
    2026-03-03T10:20:00Z,v,B
    2026-03-03T11:00:00Z,v,C

    """

  /// A fresh folder holding `log.csv`.
  static func folder() throws -> String {
    let url = try TestFolders.fresh("smartstack-experiments")
    try Data(log.utf8).write(to: url.appendingPathComponent("log.csv"))
    return url.path
  }

  /// Writes `text` as `name` in `folder` and returns its path.
  @discardableResult
  static func write(_ text: String, _ name: String, in folder: String) throws -> String {
    let path = folder + "/" + name
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// Reads a config written into a fresh folder with the log.
  static func design(_ config: String, overrides: ExperimentOverrides = ExperimentOverrides())
    throws -> ExperimentDesign
  {
    let folder = try folder()
    let path = try write(config, "exp.json", in: folder)
    return try ExperimentConfig.read(path: path, overrides: overrides)
  }

  /// The messages of the diagnostics a config produces, as `LINE:COLUMN: message`
  /// (the folder part of the file name varies).
  static func problems(_ config: String, overrides: ExperimentOverrides = ExperimentOverrides())
    -> [String]
  {
    do {
      _ = try design(config, overrides: overrides)
      return []
    } catch let list as DiagnosticList {
      return list.diagnostics.map { "\($0.line):\($0.column): \($0.message)" }
    } catch {
      return ["\(type(of: error)): \(error)"]
    }
  }

  /// Every file of an output folder (CSV and trace), by name.
  static func outputs(_ folder: String, _ names: [String]) throws -> [String: [UInt8]] {
    var files: [String: [UInt8]] = [:]
    for name in names { files[name] = try FileIO.readBytes(folder + "/" + name) }
    return files
  }
}
