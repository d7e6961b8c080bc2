import Foundation
import Testing

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

@Suite("Biome folder layouts")
struct BiomeStreamFilesTests {
  /// A Biome folder: `Biome/streams/restricted/{App.InFocus,App.Intent}/local/` with files
  /// whose names sort differently as bytes and as numbers, a hidden file, a tombstone
  /// folder and a remote folder.
  private func biome() throws -> URL {
    let root = try TestFolders.fresh("biome-layouts").appendingPathComponent("Biome")
    for path in [
      "streams/restricted/App.InFocus/local/9", "streams/restricted/App.InFocus/local/10",
      "streams/restricted/App.InFocus/local/.DS_Store",
      "streams/restricted/App.InFocus/local/tombstone/1",
      "streams/restricted/App.InFocus/remote/DEVICE/1", "streams/restricted/App.Intent/local/1",
      "streams/restricted/Other.Stream/local/1",
    ] {
      let url = root.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data().write(to: url)
    }
    return root
  }

  private func names(_ path: String, stream: BiomeStream? = nil) throws -> [String] {
    try BiomeStreamFiles(path: path, stream: stream).files.map {
      let parts = $0.path.split(separator: "/")
      return "\($0.stream.rawValue):\(parts.suffix(2).joined(separator: "/"))"
    }
  }

  @Test func everyAcceptedFolderGivesTheLocalFilesSortedByName() throws {
    let root = try biome()
    let all = ["App.InFocus:local/10", "App.InFocus:local/9", "App.Intent:local/1"]
    for path in ["", "/streams", "/streams/restricted"] {
      #expect(try names(root.path + path) == all, "\(path)")
    }
    let focus = ["App.InFocus:local/10", "App.InFocus:local/9"]
    #expect(try names(root.path + "/streams/restricted/App.InFocus") == focus)
    #expect(try names(root.path + "/streams/restricted/App.InFocus/local") == focus)
    #expect(try names(root.path, stream: .intent) == ["App.Intent:local/1"])
    // A local folder of a stream the path does not name, read as the stream given.
    let older = root.appendingPathComponent("streams/public/AppIntent/local")
    try FileManager.default.createDirectory(at: older, withIntermediateDirectories: true)
    try Data().write(to: older.appendingPathComponent("5"))
    #expect(try names(older.path, stream: .intent) == ["App.Intent:local/5"])
    #expect(throws: InputFileError.self) { try names(older.path) }
  }

  @Test func aSingleFileTakesItsStreamFromThePathOrTheOption() throws {
    let root = try biome()
    let file = root.path + "/streams/restricted/App.Intent/local/1"
    #expect(try names(file) == ["App.Intent:local/1"])
    let copy = root.deletingLastPathComponent().appendingPathComponent("segment").path
    try FileManager.default.copyItem(atPath: file, toPath: copy)
    #expect(throws: InputFileError.self) { try names(copy) }
    #expect(try names(copy, stream: .inFocus).first?.hasPrefix("App.InFocus:") == true)
  }

  @Test func aFolderWithoutStreamsOrAMissingPathIsAnInputError() throws {
    let root = try biome()
    #expect(throws: InputFileError.self) { try names(root.deletingLastPathComponent().path) }
    #expect(throws: InputFileError.self) { try names(root.path + "/nothing") }
  }
}
