import Foundation
import NetBase
import Testing

@Suite("HTTPHeaders")
struct HTTPHeadersTests {
    @Test("names are looked up, replaced and removed case-insensitively")
    func caseInsensitive() {
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        #expect(headers["content-type"] == "application/json")
        #expect(headers["CONTENT-TYPE"] == "application/json")
        #expect(headers.contains("cOnTeNt-TyPe"))
        headers["CONTENT-type"] = "text/plain"
        #expect(headers.count == 1)
        #expect(headers["Content-Type"] == "text/plain")
        headers["content-TYPE"] = nil
        #expect(headers.isEmpty)
    }

    @Test("names that differ in more than case stay distinct")
    func distinctNames() {
        let headers: HTTPHeaders = ["X-A": "1", "X-B": "2", "X_A": "3"]
        #expect(headers.count == 3)
        #expect(headers["x-a"] == "1")
        #expect(headers["x_a"] == "3")
        #expect(headers["X-AB"] == nil)
    }

    @Test("a later field of the same name replaces an earlier one, keeping the first spelling")
    func laterFieldReplaces() {
        let headers = HTTPHeaders(fields: [("Accept", "a"), ("ACCEPT", "b")])
        #expect(headers.count == 1)
        #expect(headers["accept"] == "b")
        #expect(headers.map(\.name) == ["Accept"])
    }

    @Test("a dictionary with names differing only in case makes one field")
    func dictionaryWithCaseDuplicates() {
        let headers = HTTPHeaders(["Accept": "a", "accept": "b"])
        #expect(headers.count == 1)
    }

    @Test("merging sets the other headers over these, case-insensitively")
    func merging() {
        let base: HTTPHeaders = ["Accept": "a", "X-Keep": "k"]
        let merged = base.merging(["accept": "b", "X-New": "n"])
        #expect(merged.count == 3)
        #expect(merged["ACCEPT"] == "b")
        #expect(merged["x-keep"] == "k")
        #expect(merged["x-new"] == "n")
    }

    @Test("repeated fields stay apart: values(for:) gives each, the subscript joins them, setting folds them")
    func repeatedFields() {
        var headers = HTTPHeaders(allFields: [
            .init(name: "Set-Cookie", value: "z=y, a=b"), .init(name: "X", value: "1"), .init(name: "set-cookie", value: "c=d"),
        ])
        #expect(headers.count == 3)
        #expect(headers.values(for: "SET-COOKIE") == ["z=y, a=b", "c=d"])
        #expect(headers["set-cookie"] == "z=y, a=b, c=d")
        #expect(headers.dictionary["Set-Cookie"] == "z=y, a=b, c=d")
        headers.add(name: "X", value: "2")
        #expect(headers.values(for: "x") == ["1", "2"])
        headers["Set-Cookie"] = "only=1"
        #expect(headers.values(for: "Set-Cookie") == ["only=1"])
        #expect(headers.map(\.name) == ["Set-Cookie", "X", "X"])
        headers["x"] = nil
        #expect(!headers.contains("X"))
        #expect(headers.count == 1)
    }

    @Test("equality counts repeated values in their order, not the order between names")
    func equalityWithRepeatedFields() {
        let a = HTTPHeaders(allFields: [.init(name: "A", value: "1"), .init(name: "B", value: "x"), .init(name: "a", value: "2")])
        let b = HTTPHeaders(allFields: [.init(name: "b", value: "x"), .init(name: "a", value: "1"), .init(name: "A", value: "2")])
        let swapped = HTTPHeaders(allFields: [.init(name: "A", value: "2"), .init(name: "B", value: "x"), .init(name: "a", value: "1")])
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != swapped)
        #expect(a != ["A": "1, 2", "B": "x"], "two fields are not one joined field")
    }

    @Test("equality and hashing ignore name case and order")
    func equalityIgnoresCaseAndOrder() {
        let a: HTTPHeaders = ["Accept": "a", "X-B": "b"]
        let b: HTTPHeaders = ["x-b": "b", "ACCEPT": "a"]
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != ["Accept": "A", "X-B": "b"], "values stay case-sensitive")
    }

    @Test("dictionary keeps the original spellings")
    func dictionaryView() {
        let headers: HTTPHeaders = ["X-Trace": "1"]
        #expect(headers.dictionary == ["X-Trace": "1"])
    }
}

@Suite("Parameters")
struct ParametersTests {
    @Test("the literal syntax accepts strings, numbers, bools, arrays and dictionaries in order")
    func literalSyntax() {
        let parameters: Parameters = [
            "q": "swift", "page": 2, "tags": ["a", "b"], "exact": true, "score": 0.5,
            "filter": ["lang": "en"], "none": Optional<String>.none,
        ]
        #expect(parameters.map(\.key) == ["q", "page", "tags", "exact", "score", "filter", "none"])
        #expect(parameters["q"] == .string("swift"))
        #expect(parameters["page"] == .int(2))
        #expect(parameters["tags"] == .array([.string("a"), .string("b")]))
        #expect(parameters["exact"] == .bool(true))
        #expect(parameters["score"] == .double(0.5))
        #expect(parameters["filter"] == .dictionary(["lang": "en"]))
        #expect(parameters["none"] == .null)
        #expect(parameters["missing"] == nil)
    }

    @Test("Swift dictionaries used as values are sorted by key, so encoding is deterministic")
    func dictionaryValuesAreSorted() {
        let nested: [String: Int] = ["b": 2, "c": 3, "a": 1]
        let parameters: Parameters = ["n": nested]
        #expect(ParameterEncoding().encode(parameters) == "n%5Ba%5D=1&n%5Bb%5D=2&n%5Bc%5D=3")
    }

    @Test("merging appends the other's pairs; a key in both takes the other's value")
    func merging() {
        let general: Parameters = ["api_key": "k", "v": 1, "lang": "en"]
        let merged = general.merging(["v": 2, "q": "x"])
        #expect(merged == ["api_key": "k", "lang": "en", "v": 2, "q": "x"])
        #expect(general.merging([:]) == general)
        #expect(Parameters().merging(general) == general)
    }

    @Test("the key subscript replaces the first value, appends new keys and removes on nil")
    func subscriptSetter() {
        var parameters: Parameters = ["a": 1, "b": 2]
        parameters["a"] = 10
        parameters["c"] = 3
        parameters["b"] = nil
        #expect(parameters == ["a": 10, "c": 3])
    }

    @Test("keys may repeat and keep their order")
    func repeatedKeys() {
        let parameters = Parameters([("id", 1), ("id", 2)])
        #expect(ParameterEncoding().encode(parameters) == "id=1&id=2")
    }

    @Test(
        "numbers are written without noise",
        arguments: [
            (ParameterValue.int(-3), "-3"), (.double(2.0), "2"), (.double(0.1), "0.1"), (.double(-1.25), "-1.25"),
            (.bool(true), "true"), (.string(""), ""),
        ])
    func scalarText(value: ParameterValue, text: String) {
        #expect(ParameterEncoding().encode(Parameters([("k", value)])) == "k=\(text)")
    }

    @Test("a null value is written as the bare key")
    func nullValue() {
        #expect(ParameterEncoding().encode(["flag": ParameterValue.null, "a": 1]) == "flag&a=1")
    }
}
