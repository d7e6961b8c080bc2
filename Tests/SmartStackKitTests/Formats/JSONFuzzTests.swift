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

/// SplitMix64 (Steele, Lea, Flood 2014) for the Formats tests: small, seeded, frozen.
struct FormatsTestGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound` (slightly biased; fine for tests).
  mutating func next(below bound: Int) -> Int {
    Int(next() % UInt64(bound))
  }

  /// A double with uniformly random bits (any sign, exponent, NaN, infinity).
  mutating func nextBitPattern() -> Double {
    Double(bitPattern: next())
  }
}

/// Valid documents that the mutation fuzzer starts from.
let jsonFuzzCorpus: [String] = [
  #"{"name": "demo", "seed": 7, "weights": [0.5, 1e-3, -2], "on": true, "off": null}"#,
  #"[{"a": {"b": [[], {}, ""]}}, "\u00e9\ud83d\ude00\n", 123456789012345678901234567890]"#,
  #"{"x\"y": "tab\there", "empty": {}, "list": [1, 2, 3.25e+10, -0.0, 0]}"#,
  #""just a string with ünïcödé""#,
  "  [true, false, null, \"\\\\\", \"/\"]  ",
]

@Suite("JSON parser: fuzzing")
struct JSONFuzzTests {
  /// Every node's offset points at a byte that can start a value of its kind.
  private func offsetsAreConsistent(_ node: JSONNode, _ bytes: [UInt8]) -> Bool {
    guard node.offset >= 0, node.offset < bytes.count else { return false }
    let first = bytes[node.offset]
    switch node.value {
    case .null: return first == UInt8(ascii: "n")
    case .bool(let value): return first == UInt8(ascii: value ? "t" : "f")
    case .number: return first == UInt8(ascii: "-") || JSONScanner.isDigit(first)
    case .string: return first == UInt8(ascii: "\"")
    case .array(let elements):
      return first == UInt8(ascii: "[") && elements.allSatisfy { offsetsAreConsistent($0, bytes) }
    case .object(let members):
      return first == UInt8(ascii: "{")
        && members.allSatisfy {
          bytes[$0.keyOffset] == UInt8(ascii: "\"") && offsetsAreConsistent($0.node, bytes)
        }
    }
  }

  /// Parses `bytes`; when that succeeds, checks offsets and that writing the tree
  /// (compact and pretty) and reading it again gives the same tree. Otherwise checks
  /// the error is located inside the input.
  private func check(_ bytes: [UInt8], seed: UInt64, trial: Int) {
    do {
      let node = try JSONParser.parse(bytes)
      #expect(offsetsAreConsistent(node, bytes), "seed \(seed) trial \(trial)")
      for pretty in [false, true] {
        let text = node.serialized(pretty: pretty)
        let again = try? JSONParser.parse(text)
        #expect(
          again?.withoutLocations == node.withoutLocations,
          "seed \(seed) trial \(trial) pretty \(pretty): \(text)")
      }
    } catch {
      #expect(error.offset >= 0 && error.offset <= bytes.count, "seed \(seed) trial \(trial)")
      #expect(!error.message.isEmpty)
    }
  }

  @Test func randomBytesNeverCrashTheParser() {
    let alphabet = Array(#"{}[],:" -+.0123456789eEtrufalsn\/u"#.utf8) + [0x09, 0x0A, 0x0D]
    for seed in UInt64(1)...4 {
      var rng = FormatsTestGenerator(seed: seed)
      for trial in 0..<1500 {
        let length = rng.next(below: 48)
        var bytes: [UInt8] = []
        for _ in 0..<length {
          bytes.append(
            rng.next(below: 4) == 0
              ? UInt8(truncatingIfNeeded: rng.next()) : alphabet[rng.next(below: alphabet.count)])
        }
        check(bytes, seed: seed, trial: trial)
      }
    }
  }

  @Test func mutatedValidDocumentsNeverCrashTheParser() throws {
    for document in jsonFuzzCorpus {
      #expect(throws: Never.self) { try JSONParser.parse(document) }
    }
    for seed in UInt64(10)...13 {
      var rng = FormatsTestGenerator(seed: seed)
      for trial in 0..<1500 {
        var bytes = Array(jsonFuzzCorpus[rng.next(below: jsonFuzzCorpus.count)].utf8)
        for _ in 0...rng.next(below: 3) {
          let at = rng.next(below: bytes.count + 1)
          switch rng.next(below: 4) {
          case 0 where at < bytes.count: bytes.remove(at: at)
          case 1: bytes.insert(UInt8(truncatingIfNeeded: rng.next()), at: at)
          case 2 where at < bytes.count:
            let structural = Array(#"{}[],:"\0e.-"#.utf8)
            bytes[at] = structural[rng.next(below: structural.count)]
          default:
            let end = min(bytes.count, at + rng.next(below: 8))
            bytes.insert(contentsOf: bytes[at..<end], at: at)
          }
        }
        check(bytes, seed: seed, trial: trial)
      }
    }
  }
}
