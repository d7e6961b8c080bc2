import Foundation
import Testing

/// A tuned experiment (docs/batch.md, "Tuning") split over shards and merged, and with
/// `--emit-exposures`: the same files as one run, and exposures of the chosen points.
@Suite("Tuning beyond one run: merged shards and emitted exposures use the chosen parameters")
struct TunedShardsTests {
  private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// A small tuned config on the commuter log: mfu, and hour-of-week's half-life chosen
  /// by 4 random trials on the validation window.
  private func config(in folder: URL) throws -> String {
    let logs = root.appendingPathComponent("Datasets/logs/commuter").path
    return try CLI.write(
      """
      {"name": "tuned", "seed": 3, "replicates": 2, "baseline": "mfu",
       "sources": [{"name": "commuter", "log": "\(logs)/donations.csv", "visits": "sessions:5",
         "timezone": "Europe/Berlin",
         "split": {"train": "2026-03-02..2026-03-04", "validation": "2026-03-05..2026-03-06", "test": "2026-03-07..2026-03-08"}}],
       "strategies": ["mfu", {"name": "hour-of-week",
         "tune": {"parameters": {"half-life-days": {"min": 0.25, "max": 28, "scale": "log"}}, "search": "random", "trials": 4}}]}

      """, to: "tuned.json", in: folder)
  }

  /// A temporary folder with shards `s1` and `s2` of the config, `s2/tuning.csv` with a
  /// row appended after the shard wrote it; its bytes before and after.
  private func shardsWithAChangedTuningFile() throws -> (URL, [UInt8], [UInt8]) {
    let folder = try CLI.temporaryFolder()
    let file = try config(in: folder)
    for k in 1...2 {
      #expect(try CLI.run(["batch", file, "--shard", "\(k)/2", "--out", "s\(k)", "--quiet"], in: folder).status == 0)
    }
    let tuning = folder.appendingPathComponent("s2/tuning.csv")
    let before = [UInt8](try Data(contentsOf: tuning))
    let after = before + Array("hour-of-week,2,random,5,0,20,half-life-days=1,hit_rate,0.9,2,0\n".utf8)
    try Data(after).write(to: tuning)
    return (folder, before, after)
  }

  @Test("merged shards of a tuned experiment hold one run's files byte for byte, tuning.csv too")
  func mergedShardsEqualOneRun() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = try config(in: folder)
    let whole = try CLI.run(["batch", file, "--out", "whole", "--quiet"], in: folder)
    #expect(whole.status == 0, "\(whole.stderr)")
    for k in 1...2 {
      let shard = try CLI.run(["batch", file, "--shard", "\(k)/2", "--out", "s\(k)", "--quiet"], in: folder)
      #expect(shard.status == 0, "\(shard.stderr)")
    }
    let merge = try CLI.run(["merge", "s1", "s2", "--out", "merged", "--quiet"], in: folder)
    #expect(merge.status == 0, "\(merge.stderr)")
    let one = try CLI.reports(folder.appendingPathComponent("whole"))
    #expect(one["tuning.csv"] != nil)
    #expect(try CLI.reports(folder.appendingPathComponent("merged")) == one)
    let manifest = try String(contentsOf: folder.appendingPathComponent("merged/manifest.json"), encoding: .utf8)
    #expect(manifest.contains("\"tuning.csv\""), "the merged manifest lists tuning.csv")
  }

  @Test("a shard whose tuning.csv was changed after it was written is refused by merge, which writes nothing")
  func aChangedTuningFileIsRefused() throws {
    let (folder, _, _) = try shardsWithAChangedTuningFile()
    defer { try? FileManager.default.removeItem(at: folder) }
    let changed = try CLI.run(["merge", "s1", "s2", "--out", "merged"], in: folder)
    #expect(changed.status == 65, "\(changed.stderr)")
    #expect(changed.stderr.contains("s2/tuning.csv"), "\(changed.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("merged/runs.csv").path))
  }

  @Test("shards whose tuning.csv differ, each as its manifest says, are refused by merge naming both")
  func disagreeingShardsAreRefused() throws {
    // s2's manifest gains the new size and checksums too, as if that shard had tuned otherwise.
    let (folder, before, after) = try shardsWithAChangedTuningFile()
    defer { try? FileManager.default.removeItem(at: folder) }
    let manifestURL = folder.appendingPathComponent("s2/manifest.json")
    var manifest = try String(contentsOf: manifestURL, encoding: .utf8)
    for (old, new) in [
      ("\"bytes\": \(before.count),", "\"bytes\": \(after.count),"),
      (Self.fnv1a64(before), Self.fnv1a64(after)), (Self.crc32(before), Self.crc32(after)),
    ] {
      #expect(manifest.contains(old), "\(old)")
      manifest = manifest.replacingOccurrences(of: old, with: new)
    }
    try manifest.write(to: manifestURL, atomically: true, encoding: .utf8)
    let r = try CLI.run(["merge", "s1", "s2", "--out", "merged"], in: folder)
    #expect(r.status == 65, "\(r.stderr)")
    #expect(r.stderr.contains("s2/tuning.csv differs from s1/tuning.csv"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("merged/runs.csv").path))
  }

  /// FNV-1a 64 of `bytes`, 16 lowercase hex digits (a manifest's `fnv1a64`).
  static func fnv1a64(_ bytes: [UInt8]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// CRC-32 (IEEE) of `bytes`, 8 lowercase hex digits (a manifest's `crc32`).
  static func crc32(_ bytes: [UInt8]) -> String {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    let digits = String(~crc, radix: 16)
    return String(repeating: "0", count: 8 - digits.count) + digits
  }

  @Test("--emit-exposures of a tuned experiment is the set of the chosen points, as its reports are")
  func exposuresOfTheChosenPoints() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = try config(in: folder)
    let r = try CLI.run(["batch", file, "--out", "out", "--emit-exposures", "exposures", "--quiet"], in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    func manifest(_ name: String) throws -> [String: Any] {
      let data = try Data(contentsOf: folder.appendingPathComponent(name + "/manifest.json"))
      return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
    let reports = try manifest("out")
    let exposures = try manifest("exposures")
    #expect(exposures["config_hash"] as? String == reports["config_hash"] as? String)
    let chosen = ((reports["config"] as? [String: Any])?["strategies"] as? [String]) ?? []
    #expect(chosen.count == 2 && chosen[1].hasPrefix("hour-of-week:half-life-days="), "\(chosen)")
    #expect(((exposures["config"] as? [String: Any])?["strategies"] as? [String]) == chosen)
  }
}
