import Foundation
import SmartStackBase

/// How much memory a replay plan takes, and how big a block of people may be when a log
/// is replayed in blocks instead: the one estimate `replay --max-memory` and `batch`
/// decide by (docs/performance.md, "Streaming replay").
public enum PlanMemory {
  /// The bytes of the files at `paths` (a donation log and a visit log); a file that
  /// cannot be read counts 0 (its reader reports it). One `stat` per path.
  public static func fileBytes(_ paths: [String]) -> Int {
    paths.reduce(0) { total, path in
      let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
      return total + size
    }
  }

  /// About the peak bytes of a replay in memory of inputs (donation log and visit log
  /// files) of `inputBytes` bytes with `windows` plans (one per scored window of a
  /// `--split`, else 1): half the inputs' size for the first plan and a quarter for each
  /// further one. Measured on release builds: a 2.07 GB log and visit log peak at
  /// 0.87 GB; the 288 MB log and visit log of 2,000 people × 30 days at 148, 231, 281, 310
  /// and 408 MB for 1, 2, 3, 4 and 6 windows.
  public static func estimatedBytes(inputBytes: Int, windows: Int = 1) -> Int {
    inputBytes / 2 + max(windows - 1, 0) * (inputBytes / 4)
  }

  /// The most bytes a block's people may take on disk (`DonationSpill.blocks(maxBytes:visitRows:)`)
  /// for a block plan to stay within `budget` bytes: a block's plan and the rows it is
  /// built from take about three times their bytes on disk, and the rest of the run needs
  /// room too. At least 1.
  public static func blockBytes(_ budget: Int) -> Int { max(budget / 4, 1) }

  /// The default budget: a quarter of the memory the process may use, the machine's or
  /// its control group's limit when that is smaller (`MemoryLimit`: a container's, a
  /// Slurm job's, a Kubernetes pod's).
  public static var defaultBudget: Int { Int(clamping: MemoryLimit.current() / 4) }

  /// `text` as a number of bytes: a whole or decimal number with an optional K, M, G or T
  /// (powers of 1024; a trailing B or iB is allowed), e.g. `512M`, `1.5G`, `800000`; nil
  /// for anything else, and for less than one byte.
  public static func parse(_ text: String) -> Int? {
    var number = text.trimmingCharacters(in: .whitespaces).uppercased()
    for suffix in ["IB", "B"] where number.hasSuffix(suffix) && number.count > suffix.count {
      number.removeLast(suffix.count)
      break
    }
    var scale = 1.0
    if let unit = number.last, let power = ["K": 1.0, "M": 2.0, "G": 3.0, "T": 4.0][String(unit)] {
      scale = pow(1024, power)
      number.removeLast()
    }
    guard let value = Double(number), value.isFinite, value >= 1, number.allSatisfy({ $0.isNumber || $0 == "." })
    else { return nil }
    let bytes = value * scale
    return bytes < 9e18 ? Int(bytes) : nil
  }
}
