extension CookieDomain {
    /// Common public suffixes of more than one label, where unrelated sites sit side by side: a
    /// cookie may not name one of them as its `Domain` (every one-label name is refused too).
    ///
    /// This is a short built-in list of the most used registries and hosting platforms, **not**
    /// the full Public Suffix List: under a suffix missing here (say `pvt.k12.ma.us`), a site may
    /// set a cookie for its neighbours. An app that talks to such hosts should not share one jar
    /// between them.
    static let publicSuffixes: Set<String> = [
        // United Kingdom
        "co.uk", "org.uk", "me.uk", "ltd.uk", "plc.uk", "net.uk", "sch.uk", "ac.uk", "gov.uk", "nhs.uk", "police.uk",
        // Australia, New Zealand
        "com.au", "net.au", "org.au", "edu.au", "gov.au", "asn.au", "id.au",
        "co.nz", "net.nz", "org.nz", "ac.nz", "govt.nz", "geek.nz", "school.nz",
        // Japan, Korea, China, Hong Kong, Taiwan, Singapore
        "co.jp", "ne.jp", "or.jp", "ac.jp", "ad.jp", "ed.jp", "go.jp", "gr.jp", "lg.jp",
        "co.kr", "ne.kr", "or.kr", "re.kr", "go.kr", "ac.kr",
        "com.cn", "net.cn", "org.cn", "gov.cn", "edu.cn", "ac.cn",
        "com.hk", "net.hk", "org.hk", "gov.hk", "edu.hk", "idv.hk",
        "com.tw", "net.tw", "org.tw", "gov.tw", "edu.tw", "idv.tw",
        "com.sg", "net.sg", "org.sg", "gov.sg", "edu.sg",
        // South and South-East Asia
        "co.in", "net.in", "org.in", "gov.in", "ac.in", "edu.in", "firm.in", "gen.in", "ind.in",
        "co.id", "or.id", "ac.id", "go.id", "web.id", "my.id",
        "com.my", "net.my", "org.my", "gov.my", "edu.my",
        "com.ph", "net.ph", "org.ph", "gov.ph", "edu.ph",
        "co.th", "in.th", "ac.th", "go.th", "or.th",
        "com.vn", "net.vn", "org.vn", "gov.vn", "edu.vn",
        "com.pk", "net.pk", "org.pk", "gov.pk", "edu.pk",
        // Americas
        "com.br", "net.br", "org.br", "gov.br", "edu.br", "art.br", "blog.br",
        "com.mx", "net.mx", "org.mx", "gob.mx", "edu.mx",
        "com.ar", "net.ar", "org.ar", "gob.ar", "com.co", "net.co", "org.co", "gov.co",
        "com.pe", "com.ve", "com.uy", "com.ec", "com.bo", "com.py",
        // Europe, Middle East, Africa
        "com.tr", "net.tr", "org.tr", "gov.tr", "edu.tr", "av.tr",
        "com.ua", "net.ua", "org.ua", "gov.ua", "in.ua",
        "com.pl", "net.pl", "org.pl", "gov.pl", "edu.pl",
        "com.es", "nom.es", "org.es", "gob.es", "edu.es", "com.pt", "org.pt", "gov.pt",
        "co.il", "org.il", "net.il", "ac.il", "gov.il", "muni.il",
        "com.sa", "net.sa", "org.sa", "gov.sa", "edu.sa",
        "com.eg", "net.eg", "org.eg", "gov.eg", "edu.eg",
        "co.za", "net.za", "org.za", "gov.za", "ac.za", "web.za",
        "co.ke", "or.ke", "ac.ke", "go.ke", "com.ng", "org.ng", "gov.ng", "edu.ng",
        "com.ru", "net.ru", "org.ru", "msk.ru", "spb.ru",
        // Hosting platforms whose customers share a parent domain
        "github.io", "githubusercontent.com", "gitlab.io", "herokuapp.com", "herokussl.com", "appspot.com",
        "blogspot.com", "web.app", "firebaseapp.com", "cloudfunctions.net", "netlify.app", "vercel.app", "now.sh",
        "pages.dev", "workers.dev", "r2.dev", "fly.dev", "onrender.com", "glitch.me", "surge.sh", "readthedocs.io",
        "ngrok.io", "ngrok-free.app", "azurewebsites.net", "azurestaticapps.net", "cloudapp.net", "cloudfront.net",
        "elasticbeanstalk.com", "s3.amazonaws.com", "amplifyapp.com", "repl.co", "replit.dev", "deno.dev",
        "myshopify.com", "wixsite.com", "wordpress.com", "tumblr.com", "carrd.co", "bitbucket.io", "codeberg.page",
    ]
}
