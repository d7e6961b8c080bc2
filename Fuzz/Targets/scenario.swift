// libFuzzer target: the scenario decoder (Scenario.read(bytes:file:)). Any input must give
// a scenario or a DiagnosticList, never a trap, a hang or a leak.
import SmartStackKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  do {
    _ = try Scenario.read(bytes: bytes, file: "fuzz.json")
  } catch is DiagnosticList {
  } catch {
    fatalError("unexpected error type: \(error)")
  }
  return 0
}
