import Foundation
import Testing

/// The repository's `Datasets/` folder.
private let datasets = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Datasets")
private let tiny = datasets.appendingPathComponent("experiments/tiny.json").path
private let csvFiles = ["runs.csv", "daily.csv", "summary.csv", "paired.csv"]

/// Every variable `--shard env` reads: removed from what the binary inherits, so a test
/// run inside a Slurm job or a pod sees only the variables the test sets.
private let schedulerVariables = [
  "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX", "SLURM_ARRAY_TASK_COUNT",
  "SLURM_ARRAY_TASK_STEP", "SLURM_JOB_ID", "JOB_COMPLETION_INDEX",
]

private func files(_ folder: URL, _ names: [String]) throws -> [String: Data] {
  var result: [String: Data] = [:]
  for name in names { result[name] = try Data(contentsOf: folder.appendingPathComponent(name)) }
  return result
}

private func text(_ url: URL) throws -> String { String(decoding: try Data(contentsOf: url), as: UTF8.self) }

/// `batch --shard env` and `env/N` run by the binary with a scheduler's variables set.
@Suite("smartstack batch --shard env")
struct ShardEnvironmentTests {
  @Test func aSlurmArrayOfThreeMergesIntoTheFilesOfOneRun() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(try CLI.run(["batch", tiny, "--out", "whole", "--quiet"], in: folder, unsetting: schedulerVariables).status == 0)
    // sbatch --array=0-2: the task ids 0, 1, 2 are shards 1/3, 2/3, 3/3.
    for id in 0...2 {
      let env = [
        "SLURM_ARRAY_TASK_ID": "\(id)", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "2",
        "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_STEP": "1", "SLURM_JOB_ID": "\(100 + id)",
      ]
      let r = try CLI.run(["batch", tiny, "--shard", "env", "--out", "shard-\(id)"], in: folder, environment: env)
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stderr.contains("shard \(id + 1)/3 from SLURM_ARRAY_TASK_ID=\(id) of --array=0-2 (SLURM_ARRAY_TASK_COUNT=3)"))
      #expect(r.stderr.contains("wrote shard \(id + 1)/3 of tiny"))
      let shard = folder.appendingPathComponent("shard-\(id)")
      // Recorded like an explicit --shard K/N: the manifest and the journal's name.
      #expect(try text(shard.appendingPathComponent("manifest.json")).contains("\"shard\": \"\(id + 1)/3\""))
      #expect(FileManager.default.fileExists(atPath: shard.appendingPathComponent(".journal/shard-\(id + 1)-of-3.jsonl").path))
    }
    let merge = try CLI.run(["merge", "shard-0", "shard-1", "shard-2", "--out", "merged", "--quiet"], in: folder)
    #expect(merge.status == 0, "\(merge.stderr)")
    #expect(
      try files(folder.appendingPathComponent("merged"), csvFiles)
        == files(folder.appendingPathComponent("whole"), csvFiles))
  }

  @Test func aKubernetesIndexIsTheSameShardAsItsKOfN() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fixed = try CLI.run(["batch", tiny, "--shard", "2/3", "--out", "fixed", "--quiet"], in: folder, unsetting: schedulerVariables)
    #expect(fixed.status == 0, "\(fixed.stderr)")
    let pod = try CLI.run(
      ["batch", tiny, "--shard", "env/3", "--out", "pod"], in: folder,
      environment: ["JOB_COMPLETION_INDEX": "1"], unsetting: schedulerVariables.filter { $0 != "JOB_COMPLETION_INDEX" })
    #expect(pod.status == 0, "\(pod.stderr)")
    #expect(pod.stderr.contains("shard 2/3 from JOB_COMPLETION_INDEX=1 of 3 completions"))
    // The journal's lines follow the order cells finish in; the CSVs are sorted.
    let names = ["runs.csv", "daily.csv"]
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("pod/.journal/shard-2-of-3.jsonl").path))
    #expect(try files(folder.appendingPathComponent("pod"), names) == files(folder.appendingPathComponent("fixed"), names))
    #expect(try text(folder.appendingPathComponent("pod/manifest.json")).contains("\"shard\": \"2/3\""))
  }

  @Test func withoutASchedulerEnvIsAUsageErrorNamingTheVariables() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let none = try CLI.run(["batch", tiny, "--shard", "env", "--out", "out"], in: folder, unsetting: schedulerVariables)
    #expect(none.status == 64)
    #expect(none.stderr.contains("--shard env: neither a Slurm job array (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_MAX, SLURM_ARRAY_TASK_COUNT) nor a Kubernetes Indexed Job (JOB_COMPLETION_INDEX) is in the environment"))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    let noCount = try CLI.run(
      ["batch", tiny, "--shard", "env", "--out", "out"], in: folder,
      environment: ["JOB_COMPLETION_INDEX": "0"], unsetting: schedulerVariables.filter { $0 != "JOB_COMPLETION_INDEX" })
    #expect(noCount.status == 64)
    #expect(noCount.stderr.contains("give it as --shard env/N, N the Job's spec.completions"))
    let malformed = try CLI.run(
      ["batch", tiny, "--shard", "env", "--out", "out"], in: folder,
      environment: [
        "SLURM_ARRAY_TASK_ID": "one", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "2", "SLURM_ARRAY_TASK_COUNT": "3",
      ])
    #expect(malformed.status == 64)
    #expect(malformed.stderr.contains("SLURM_ARRAY_TASK_ID='one' is not a whole number >= 0"))
    let spelling = try CLI.run(["batch", tiny, "--shard", "env:3"], in: folder)
    #expect(spelling.status == 64)
    #expect(spelling.stderr.contains("env (a Slurm job array) or env/N (a Kubernetes Indexed Job of N completions)"))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
  }
}
