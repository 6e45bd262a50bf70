/// What `HARDocumentTests` captures, as the HAR export wrote it before capture and replay
/// shared one model (generated once from that code; any change here is a change to the format).
enum HARDocumentGolden {
    static let text = #"""
        {
          "log" : {
            "creator" : {
              "name" : "NetKit",
              "version" : "1.0"
            },
            "entries" : [
              {
                "cache" : {

                },
                "comment" : "attempt 2, source network",
                "request" : {
                  "bodySize" : 29,
                  "cookies" : [
                    {
                      "name" : "session",
                      "value" : "<redacted>"
                    },
                    {
                      "name" : "theme",
                      "value" : "dark"
                    }
                  ],
                  "headers" : [
                    {
                      "name" : "Content-Type",
                      "value" : "application/x-www-form-urlencoded"
                    },
                    {
                      "name" : "Cookie",
                      "value" : "session=<redacted>; theme=dark"
                    }
                  ],
                  "headersSize" : -1,
                  "httpVersion" : "HTTP/2",
                  "method" : "POST",
                  "postData" : {
                    "mimeType" : "application/x-www-form-urlencoded",
                    "params" : [
                      {
                        "name" : "name",
                        "value" : "Ann Lee"
                      },
                      {
                        "name" : "note",
                        "value" : "a&b"
                      },
                      {
                        "name" : "empty",
                        "value" : ""
                      }
                    ],
                    "text" : "name=Ann+Lee&note=a%26b&empty"
                  },
                  "queryString" : [
                    {
                      "name" : "expand",
                      "value" : "items"
                    },
                    {
                      "name" : "q",
                      "value" : "a b"
                    }
                  ],
                  "url" : "https://api.example.com/orders?expand=items&q=a%20b"
                },
                "response" : {
                  "bodySize" : 120,
                  "content" : {
                    "mimeType" : "application/json",
                    "size" : 8,
                    "text" : "{\"id\":7}"
                  },
                  "cookies" : [
                    {
                      "name" : "id",
                      "value" : "7"
                    }
                  ],
                  "headers" : [
                    {
                      "name" : "Content-Type",
                      "value" : "application/json"
                    },
                    {
                      "name" : "Set-Cookie",
                      "value" : "id=7; Path=/"
                    },
                    {
                      "name" : "Location",
                      "value" : "/orders/7"
                    }
                  ],
                  "headersSize" : -1,
                  "httpVersion" : "HTTP/2",
                  "redirectURL" : "/orders/7",
                  "status" : 201,
                  "statusText" : "Created"
                },
                "startedDateTime" : "2023-11-14T22:13:20.250Z",
                "time" : 40,
                "timings" : {
                  "blocked" : -1,
                  "connect" : 10,
                  "dns" : -1,
                  "receive" : 10,
                  "send" : 0,
                  "ssl" : -1,
                  "wait" : 20
                }
              },
              {
                "cache" : {

                },
                "comment" : "attempt 1, source network",
                "request" : {
                  "bodySize" : 0,
                  "cookies" : [

                  ],
                  "headers" : [

                  ],
                  "headersSize" : -1,
                  "httpVersion" : "HTTP/1.1",
                  "method" : "GET",
                  "queryString" : [

                  ],
                  "url" : "http://127.0.0.1:8080/image"
                },
                "response" : {
                  "bodySize" : 3,
                  "content" : {
                    "encoding" : "base64",
                    "mimeType" : "application/octet-stream",
                    "size" : 3,
                    "text" : "/9gA"
                  },
                  "cookies" : [

                  ],
                  "headers" : [

                  ],
                  "headersSize" : -1,
                  "httpVersion" : "HTTP/1.1",
                  "redirectURL" : "",
                  "status" : 200,
                  "statusText" : "OK"
                },
                "startedDateTime" : "2023-11-14T22:13:20.250Z",
                "time" : 5,
                "timings" : {
                  "blocked" : -1,
                  "connect" : -1,
                  "dns" : -1,
                  "receive" : 0,
                  "send" : 0,
                  "ssl" : -1,
                  "wait" : 5
                }
              },
              {
                "_error" : "connection refused",
                "cache" : {

                },
                "comment" : "attempt 1, source none",
                "request" : {
                  "bodySize" : 0,
                  "cookies" : [

                  ],
                  "headers" : [

                  ],
                  "headersSize" : -1,
                  "httpVersion" : "HTTP/1.1",
                  "method" : "DELETE",
                  "queryString" : [

                  ],
                  "url" : "http://127.0.0.1:9/gone"
                },
                "response" : {
                  "bodySize" : -1,
                  "content" : {
                    "mimeType" : "x-unknown",
                    "size" : 0
                  },
                  "cookies" : [

                  ],
                  "headers" : [

                  ],
                  "headersSize" : -1,
                  "httpVersion" : "",
                  "redirectURL" : "",
                  "status" : 0,
                  "statusText" : ""
                },
                "startedDateTime" : "2023-11-14T22:13:20.250Z",
                "time" : 1,
                "timings" : {
                  "blocked" : -1,
                  "connect" : -1,
                  "dns" : -1,
                  "receive" : 0,
                  "send" : 0,
                  "ssl" : -1,
                  "wait" : 1
                }
              }
            ],
            "version" : "1.2"
          }
        }
        """#
}
