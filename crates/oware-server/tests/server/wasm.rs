//! The WebAssembly engine as the server serves it: its content type, its
//! caching (an `ETag` that answers 304 when unchanged), and the headers
//! that let the page compile it and share a stop flag with its worker.

use crate::common::*;

fn header<'a>(headers: &'a str, name: &str) -> Option<&'a str> {
    headers.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_module_is_served_as_wasm_cached_and_allowed_by_the_csp() {
    let (_dir, server) = start_with(oware_server::Config::default()).await;
    let addr = server.addr();
    let module = include_bytes!("../../web/wasm/oware.wasm");

    let r = request(addr, "GET", "/wasm/oware.wasm", "", &[], b"").await;
    assert_eq!(r.status, 200);
    let h = r.headers.to_ascii_lowercase();
    assert_eq!(header(&h, "content-type"), Some("application/wasm"), "{h}");
    assert_eq!(
        header(&h, "content-length"),
        Some(module.len().to_string().as_str()),
        "{h}"
    );
    assert_eq!(
        header(&h, "cache-control"),
        Some("public, max-age=300"),
        "{h}"
    );
    let etag = header(&h, "etag").expect("an etag").to_string();
    assert!(etag.starts_with('"') && etag.len() == 34, "{etag}");
    // The CSP lets the page compile WebAssembly, and no more than that.
    let csp = header(&h, "content-security-policy").unwrap();
    let script_src = csp
        .split(';')
        .map(str::trim)
        .find(|d| d.starts_with("script-src"))
        .unwrap();
    assert_eq!(script_src, "script-src 'self' 'wasm-unsafe-eval'", "{csp}");
    assert!(!csp.contains("'unsafe-eval'"), "{csp}");
    // Cross-origin isolation: the page may share memory with the worker.
    assert_eq!(
        header(&h, "cross-origin-opener-policy"),
        Some("same-origin")
    );
    assert_eq!(
        header(&h, "cross-origin-embedder-policy"),
        Some("require-corp")
    );

    // Unchanged: 304 and no body.
    let again = request(
        addr,
        "GET",
        "/wasm/oware.wasm",
        "",
        &[format!("If-None-Match: {etag}")],
        b"",
    )
    .await;
    assert_eq!(again.status, 304, "{}", again.headers);
    assert!(again.body.is_empty());
    // Another version: the whole file.
    let other = request(
        addr,
        "GET",
        "/wasm/oware.wasm",
        "",
        &["If-None-Match: \"0123\"".to_string()],
        b"",
    )
    .await;
    assert_eq!(other.status, 200);

    // The page itself is always revalidated, so a new module reaches
    // everyone at their next visit.
    let page = get(addr, "/play").await;
    assert_eq!(header(&page.headers, "cache-control"), Some("no-cache"));
    assert_eq!(
        header(&page.headers, "cross-origin-embedder-policy"),
        Some("require-corp")
    );
    // The worker's scripts are served as JavaScript.
    for js in [
        "/js/engine/wasm.js",
        "/js/engine/worker.js",
        "/js/engine/helper.js",
    ] {
        let r = get(addr, js).await;
        assert_eq!(r.status, 200, "{js}");
        assert_eq!(
            header(&r.headers, "content-type"),
            Some("text/javascript; charset=utf-8"),
            "{js}: {}",
            r.headers
        );
    }
}
