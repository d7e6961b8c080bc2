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

private func problems(_ text: String) -> [String] {
  switch ParameterText.decode(text) {
  case .success: return []
  case .failure(let error): return error.problems.map { "\($0.offset): \($0.message)" }
  }
}

@Suite("Parameter text")
struct ParameterTextTests {
  @Test func decodesPairsInWrittenOrder() throws {
    let pairs = try ParameterText.decode("card=Acme;category=Grocery").get()
    #expect(pairs == [Parameter("card", "Acme"), Parameter("category", "Grocery")])
    #expect(try ParameterText.decode("").get() == [])
    #expect(try ParameterText.decode("note=").get() == [Parameter("note", "")])
  }

  @Test func decodesPercentEscapesInEitherCase() throws {
    let pairs = try ParameterText.decode("a%3Db=x%3by%25z;%C3%A9=%e6%97%a5").get()
    #expect(pairs == [Parameter("a=b", "x;y%z"), Parameter("é", "日")])
  }

  @Test func encodesOnlyPercentSemicolonAndEquals() {
    let text = ParameterText.encode([Parameter("a=b", "x;y%z"), Parameter("é", "日 ,\"")])
    #expect(text == "a%3Db=x%3By%25z;é=日 ,\"")
  }

  @Test func encodeThenDecodeIsTheIdentityForManySeeds() throws {
    let alphabet = ["a", "Z", "=", ";", "%", "%3B", " ", "é", "\"", ","]
    for seed in UInt64(0)..<500 {
      var state = seed
      func next(_ n: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int(state >> 33) % n
      }
      var parameters: [Parameter] = []
      for k in 0..<next(4) {
        let key = "k\(k)" + (0..<next(3)).map { _ in alphabet[next(alphabet.count)] }.joined()
        let value = (0..<next(5)).map { _ in alphabet[next(alphabet.count)] }.joined()
        parameters.append(Parameter(key, value))
      }
      let decoded = try ParameterText.decode(ParameterText.encode(parameters)).get()
      #expect(decoded == parameters, "seed \(seed)")
    }
  }

  @Test func rejectsMalformedPairsAtTheirStart() {
    #expect(problems("card") == ["0: parameter 'card' has no '=' (expected key=value)"])
    #expect(problems("a=1;=2") == ["4: empty parameter name before '='"])
    #expect(problems("a=1;;b=2") == ["4: empty parameter (a stray ';')"])
    #expect(problems("a=1;") == ["4: empty parameter (a stray ';')"])
    #expect(problems("a=1;b=2;a=3") == ["8: duplicate parameter 'a'"])
    #expect(problems("a=1;%61=3") == ["4: duplicate parameter 'a'"])
    #expect(problems("a=b=c") == ["3: unescaped '=' in a parameter value (write it as %3D)"])
  }

  @Test func rejectsBadPercentEscapesAtThePercentSign() {
    #expect(
      problems("a=%zz") == ["2: bad percent escape '%zz': '%' must be followed by two hex digits"])
    #expect(
      problems("a=x%4") == ["3: bad percent escape '%4': '%' must be followed by two hex digits"])
    #expect(
      problems("a=x%") == ["3: bad percent escape '%': '%' must be followed by two hex digits"])
    #expect(
      problems("a%g1=1") == ["1: bad percent escape '%g1': '%' must be followed by two hex digits"])
  }

  @Test func rejectsEscapesThatDecodeToInvalidUTF8() {
    #expect(problems("a=ok%FF") == ["4: percent-decoded text is not valid UTF-8"])
    #expect(problems("a=%C3") == ["2: percent-decoded text is not valid UTF-8"])
  }

  @Test func reportsEveryProblemInTheText() {
    #expect(
      problems("x;a=%q1;=3")
        == [
          "0: parameter 'x' has no '=' (expected key=value)",
          "4: bad percent escape '%q1': '%' must be followed by two hex digits",
          "8: empty parameter name before '='",
        ])
  }
}
