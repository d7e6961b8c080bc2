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

@Suite("Biome fixture folder", .serialized)
struct BiomeFixtureTests {
  @Test func theCommittedFilesAreWhatTheWriterMakes() throws {
    let write = ProcessInfo.processInfo.environment["SMARTSTACK_WRITE_BIOME_FIXTURES"] == "1"
    for (path, bytes) in BiomeFixtures.files {
      let url = BiomeFixtures.folder.appendingPathComponent(path)
      if write {
        try FileManager.default.createDirectory(
          at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
      }
      #expect(try [UInt8](Data(contentsOf: url)) == bytes, "\(path)")
    }
  }

  @Test func theFolderImportsBothStreamsInFileNameOrder() throws {
    let files = try BiomeStreamFiles(path: BiomeFixtures.folder.path)
    #expect(
      files.files.map { "\($0.stream.rawValue) \(URL(fileURLWithPath: $0.path).lastPathComponent)" } == [
        "App.InFocus 794131200000000", "App.InFocus 794174400000000", "App.Intent 794131200000000",
      ])
    let r = try BiomeImporter().read(files, name: "biome").result
    #expect((r.counts.rows, r.donations.count, r.visits.count) == (16, 6, 4))
  }
}
