//! The installable, offline app as the server serves it: the manifest and
//! its icons, and the service worker (its content type, scope, caching and
//! the security headers every page has), whose list of kept files must
//! name every file of the app and only files the server has.

use crate::common::*;

fn header<'a>(headers: &'a str, name: &str) -> Option<&'a str> {
    headers.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

/// The headers every response of the app carries (security.rs).
fn assert_isolated_and_locked(h: &str) {
    assert_eq!(
        header(h, "cross-origin-opener-policy"),
        Some("same-origin"),
        "{h}"
    );
    assert_eq!(
        header(h, "cross-origin-embedder-policy"),
        Some("require-corp"),
        "{h}"
    );
    let csp = header(h, "content-security-policy").expect("a CSP");
    assert!(csp.contains("worker-src 'self'"), "{csp}");
    assert!(csp.contains("default-src 'self'"), "{csp}");
    assert_eq!(header(h, "x-content-type-options"), Some("nosniff"));
}

/// Width and height from a PNG's header.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "a PNG signature");
    assert_eq!(&bytes[12..16], b"IHDR");
    let n = |i: usize| u32::from_be_bytes(bytes[i..i + 4].try_into().unwrap());
    (n(16), n(20))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_manifest_icons_and_service_worker_are_served_for_an_installable_offline_app() {
    let (_dir, server) = start_with(oware_server::Config::default()).await;
    let addr = server.addr();

    // The manifest, with its own content type, and icons that exist.
    let r = request(addr, "GET", "/manifest.webmanifest", "", &[], b"").await;
    assert_eq!(r.status, 200);
    let h = r.headers.to_ascii_lowercase();
    assert_eq!(
        header(&h, "content-type"),
        Some("application/manifest+json; charset=utf-8"),
        "{h}"
    );
    assert_isolated_and_locked(&h);
    let manifest: serde_json::Value = serde_json::from_str(&r.body).expect("the manifest is JSON");
    assert_eq!(manifest["start_url"], "/");
    assert_eq!(manifest["scope"], "/");
    assert_eq!(manifest["display"], "standalone");
    let icons = manifest["icons"].as_array().unwrap();
    let pngs: Vec<(&[u8], u32)> = vec![
        (include_bytes!("../../web/icons/icon-192.png"), 192),
        (include_bytes!("../../web/icons/icon-512.png"), 512),
    ];
    for (bytes, size) in &pngs {
        assert_eq!(png_size(bytes), (*size, *size));
        let src = format!("/icons/icon-{size}.png");
        let icon = icons
            .iter()
            .find(|i| i["src"] == src.as_str())
            .unwrap_or_else(|| panic!("{src} in the manifest"));
        assert_eq!(icon["sizes"], format!("{size}x{size}"));
        assert_eq!(icon["type"], "image/png");
        let r = request(addr, "GET", &src, "", &[], b"").await;
        assert_eq!(r.status, 200, "{src}");
        let h = r.headers.to_ascii_lowercase();
        assert_eq!(header(&h, "content-type"), Some("image/png"), "{h}");
        assert_eq!(
            header(&h, "content-length"),
            Some(bytes.len().to_string().as_str())
        );
    }
    for icon in icons {
        let src = icon["src"].as_str().unwrap();
        assert_eq!(
            request(addr, "GET", src, "", &[], b"").await.status,
            200,
            "{src}"
        );
    }
    // The page names the manifest.
    let page = request(addr, "GET", "/", "", &[], b"").await;
    assert!(
        page.body
            .contains(r#"<link rel="manifest" href="/manifest.webmanifest">"#),
        "{}",
        page.body
    );

    // The service worker: JavaScript, never cached without revalidation (a
    // new version reaches everyone at their next visit), allowed to
    // control the whole site.
    let r = request(addr, "GET", "/sw.js", "", &[], b"").await;
    assert_eq!(r.status, 200);
    let h = r.headers.to_ascii_lowercase();
    assert_eq!(
        header(&h, "content-type"),
        Some("text/javascript; charset=utf-8"),
        "{h}"
    );
    assert_eq!(header(&h, "cache-control"), Some("no-cache"), "{h}");
    assert_eq!(header(&h, "service-worker-allowed"), Some("/"), "{h}");
    assert_isolated_and_locked(&h);
    let sw = r.body;

    // Its list of kept files: every one is served, and every file of the
    // app (scripts, styles, module, icons, lessons) is in it.
    let start = sw.find("const SHELL = [").expect("a SHELL list");
    let end = start + sw[start..].find("];").unwrap();
    let shell: Vec<&str> = sw[start..end]
        .lines()
        .filter_map(|l| l.trim().strip_prefix('\'')?.split('\'').next())
        .collect();
    assert!(shell.len() > 20, "{shell:?}");
    for path in &shell {
        let r = request(addr, "GET", path, "", &[], b"").await;
        assert_eq!(
            r.status, 200,
            "{path} is kept by the service worker but not served"
        );
    }
    for file in oware_server::assets::files() {
        let kept =
            file == "index.html" || file == "sw.js" || shell.contains(&format!("/{file}").as_str());
        assert!(
            kept,
            "{file} is served but the service worker does not keep it"
        );
    }
    // The tables it keeps are the ones the server offers the browser.
    assert!(sw.contains("'/api/v1/tables'"));
    assert!(sw.contains(r"/^\/tables\/oware-tb-\d\d\.otb$/"));
}
