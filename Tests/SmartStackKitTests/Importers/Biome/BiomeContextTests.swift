import Foundation
import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
import SmartStackTestSupport

/// `BiomeImporter.read(_:name:context:)`: `Device.Power.PluggedIn` records as `charging`
/// changes, found by `BiomeContextFiles` in the layouts the importer takes.
@Suite("Biome context: Device.Power.PluggedIn as charging")
struct BiomeContextTests {
  private var folder: String { BiomeFixtures.folder.path }

  @Test func theFixtureStreamGivesItsChargingChangesInTimeOrder() throws {
    let files = try BiomeStreamFiles(path: folder)
    let context = try BiomeContextFiles(path: folder)
    #expect(context.files.map(\.stream) == [.pluggedIn])
    let output = try BiomeImporter().read(files, name: "biome", context: context)
    let read = try #require(output.result.context)
    #expect(read.times == [-3600, 4 * 3600, 4 * 3600 + 2700, 14 * 3600, 23 * 3600 + 1800].map {
      (Int64(BiomeFixtures.t0) + BiomeImporter.cocoaEpochOffset + $0) * 1000
    })
    #expect(read.values == ["false", "true", "false", "true", "false"])
    #expect(read.signals.allSatisfy { $0 == .charging })
    #expect(read.utcOffsets.allSatisfy { $0 == UTCOffset.none } && !read.recordsOffsets)
    #expect(read.unread == 2)
  }

  @Test func readingTheContextChangesNoLogAndNoCount() throws {
    let files = try BiomeStreamFiles(path: folder)
    let plain = try BiomeImporter().read(files, name: "biome").result
    let with = try BiomeImporter().read(files, name: "biome", context: BiomeContextFiles(path: folder)).result
    #expect(plain.context == nil)
    #expect(with.donations.count == plain.donations.count && with.visits.times == plain.visits.times)
    #expect(with.counts == plain.counts)
  }

  @Test func theStreamIsFoundFromEveryLayoutAndNotFromAFile() throws {
    let restricted = folder + "/streams/restricted"
    let stream = restricted + "/Device.Power.PluggedIn"
    for path in [folder, folder + "/streams", restricted, stream, stream + "/local"] {
      #expect(try BiomeContextFiles(path: path).files.count == 1, "\(path)")
    }
    #expect(try BiomeContextFiles(path: restricted + "/App.InFocus").files.isEmpty)
    #expect(try BiomeContextFiles(path: stream + "/local/794131200000000").files.isEmpty)
    #expect(throws: InputFileError.self) { try BiomeContextFiles(path: folder + "/no-such-folder") }
  }

  @Test func aRecordWithAWrongCRCFailsTheImportOrIsCountedWhenSkipped() throws {
    let bytes = SEGBWriter.v2([
      SEGBWriter.Record(payload: BiomePayload.pluggedIn(starting: true), time: BiomeFixtures.t0, crc: 7),
      SEGBWriter.Record(payload: BiomePayload.pluggedIn(starting: false), time: BiomeFixtures.t0 + 60),
    ])
    let dir = try TestFolders.fresh("biome-context")
    let local = dir.appendingPathComponent("Device.Power.PluggedIn/local")
    try FileManager.default.createDirectory(at: local, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    try Data(bytes).write(to: local.appendingPathComponent("1"))
    let files = try BiomeStreamFiles(path: folder, stream: .intent)
    let context = try BiomeContextFiles(path: dir.path)
    #expect(throws: ArchiveError.self) { try BiomeImporter().read(files, name: "biome", context: context) }
    let skipped = try BiomeImporter(skipBadRows: true).read(files, name: "biome", context: context)
    #expect(skipped.result.context?.values == ["false"])
    #expect(skipped.result.context?.unread == 1)
    #expect(skipped.warnings.count == 1 && skipped.warnings[0].contains("offset 32: CRC-32 mismatch"))
    #expect(skipped.result.counts.dropped.last == NamedCount("bad_rows", 0))
  }
}
