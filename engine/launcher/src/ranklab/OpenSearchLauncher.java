package ranklab;

import java.io.ByteArrayInputStream;
import java.lang.reflect.Method;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Starts an OpenSearch cluster of N nodes in this JVM (codelibs' OpenSearchRunner) with the k-NN
 * plugin from the class path, prints "ranklab-engine ready URL" on standard output and runs until
 * standard input ends, SIGTERM or SIGINT (Stopper). Flags: --nodes N, --dir DIR; for https,
 * --tls-cert PEM --tls-key PEM (the certificate chain, its last certificate the CA, and the PKCS#8
 * key) and --security-config DIR (the security plugin's default configuration, from its zip),
 * with --security FILE (an internal_users.yml of the security plugin: basic authentication for
 * the users in it, each mapped by its backend roles) or without (TLS only, no authentication).
 *
 * <p>The security plugin (org.opensearch.plugin:opensearch-security, 3.4.0.0: Maven Central has no
 * 3.5 build) loads from the class path as the k-NN plugin does; TLS between the nodes and on HTTP
 * use the one certificate, which is also the nodes' identity (plugins.security.nodes_dn).
 *
 * <p>OpenSearch 3 needs Java 21, whose class files Java 17's compiler cannot read, so this class
 * reaches the runner by reflection: it compiles with the JDK 17 that builds the Solr launcher and
 * runs on any Java 21+ runtime. Each node's settings (ports on 127.0.0.1, discovery) are written to
 * its config/opensearch.yml, which the runner reads; the runner gives node i (from 1) the HTTP port
 * -baseHttpPort + i, so the HTTP ports are consecutive free ones; transport ports are free ones.
 */
public final class OpenSearchLauncher {
  public static void main(String[] args) {
    try {
      run(args);
    } catch (Throwable t) {
      Stopper.fail(t);
    }
  }

  private static void run(String[] args) throws Exception {
    int nodes = 1;
    String dir = null, security = null, cert = null, key = null, securityConfig = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--nodes" -> nodes = Integer.parseInt(args[++i]);
        case "--dir" -> dir = args[++i];
        case "--security" -> security = args[++i];
        case "--tls-cert" -> cert = args[++i];
        case "--tls-key" -> key = args[++i];
        case "--security-config" -> securityConfig = args[++i];
        default -> throw new IllegalArgumentException("unknown flag " + args[i]);
      }
    }
    if (dir == null) {
      throw new IllegalArgumentException("--dir is required");
    }
    if ((cert == null) != (key == null) || (cert == null) != (securityConfig == null) || (security != null && cert == null)) {
      throw new IllegalArgumentException("https needs --tls-cert, --tls-key and --security-config; --security needs them too");
    }
    Stopper.watch();
    int http = consecutiveFreePorts(nodes);
    int[] transport = new int[nodes];
    for (int i = 0; i < nodes; i++) {
      int p;
      do {
        p = freePort(http, nodes);
      } while (contains(transport, i, p));
      transport[i] = p;
    }
    StringBuilder seeds = new StringBuilder();
    for (int p : transport) {
      seeds.append(seeds.length() == 0 ? "" : ", ").append("\"127.0.0.1:").append(p).append('"');
    }
    for (int i = 0; i < nodes; i++) {
      Path conf = Paths.get(dir, "node_" + (i + 1), "config");
      Files.createDirectories(conf);
      String yml = "network.host: 127.0.0.1\ntransport.port: " + transport[i] + "\n"
          + (nodes > 1 ? "discovery.seed_hosts: [" + seeds + "]\n" : "");
      if (cert != null) {
        yml += secure(conf, cert, key, securityConfig, security);
      }
      Files.writeString(conf.resolve("opensearch.yml"), yml, StandardCharsets.UTF_8);
    }
    String plugins = "org.opensearch.knn.plugin.KNNPlugin" + (cert != null ? ",org.opensearch.security.OpenSearchSecurityPlugin" : "");
    Class<?> c = Class.forName("org.codelibs.opensearch.runner.OpenSearchRunner");
    Object runner = c.getConstructor().newInstance();
    c.getMethod("setMaxHttpPort", int.class).invoke(runner, -1);
    String[] conf = {"-basePath", dir, "-numOfNode", String.valueOf(nodes), "-baseHttpPort", String.valueOf(http - 1),
        "-clusterName", "ranklab", "-pluginTypes", plugins};
    Method build = c.getMethod("build", String[].class);
    Stopper.onStop(() -> {
      try {
        c.getMethod("close").invoke(runner);
      } catch (Exception e) {
        // halting anyway
      }
    });
    build.invoke(runner, (Object) conf);
    // The cluster is ready when its health is yellow: the runner waits 30 s at a time, which a
    // loaded machine can exceed while the nodes find each other; keep asking for 5 minutes.
    Method yellow = c.getMethod("ensureYellow", String[].class);
    for (long deadline = System.nanoTime() + 300_000_000_000L; ; ) {
      try {
        yellow.invoke(runner, (Object) new String[0]);
        break;
      } catch (java.lang.reflect.InvocationTargetException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Stopper.say("waiting for the cluster's health: " + e.getCause());
      }
    }
    String url = (cert != null ? "https" : "http") + "://127.0.0.1:" + http;
    if (cert != null) {
      awaitSecurity(url, Paths.get(dir, "node_1", "config", "ca.pem"), security != null);
    }
    Stopper.ready(url);
  }

  /**
   * Writes a node's TLS files and security configuration into its config folder and returns
   * the lines of opensearch.yml that switch them on.
   */
  private static String secure(Path conf, String cert, String key, String securityConfig, String users) throws Exception {
    Certificate[] chain = CertificateFactory.getInstance("X.509")
        .generateCertificates(new ByteArrayInputStream(Files.readAllBytes(Paths.get(cert)))).toArray(new Certificate[0]);
    Files.copy(Paths.get(cert), conf.resolve("node.pem"));
    Files.copy(Paths.get(key), conf.resolve("node-key.pem"));
    Files.writeString(conf.resolve("ca.pem"), pem(chain[chain.length - 1]), StandardCharsets.US_ASCII);
    String node = ((X509Certificate) chain[0]).getSubjectX500Principal().getName();
    String yml = "plugins.security.ssl.transport.pemcert_filepath: node.pem\n"
        + "plugins.security.ssl.transport.pemkey_filepath: node-key.pem\n"
        + "plugins.security.ssl.transport.pemtrustedcas_filepath: ca.pem\n"
        + "plugins.security.ssl.transport.enforce_hostname_verification: false\n"
        + "plugins.security.ssl.http.enabled: true\n"
        + "plugins.security.ssl.http.pemcert_filepath: node.pem\n"
        + "plugins.security.ssl.http.pemkey_filepath: node-key.pem\n"
        + "plugins.security.ssl.http.pemtrustedcas_filepath: ca.pem\n";
    if (users == null) {
      return yml + "plugins.security.ssl_only: true\n";
    }
    Path sec = Files.createDirectories(conf.resolve("opensearch-security"));
    try (DirectoryStream<Path> files = Files.newDirectoryStream(Paths.get(securityConfig), "*.yml")) {
      for (Path f : files) {
        Files.copy(f, sec.resolve(f.getFileName()));
      }
    }
    Files.copy(Paths.get(users), sec.resolve("internal_users.yml"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    return yml + "plugins.security.nodes_dn: [\"" + node.replace("\"", "\\\"") + "\"]\n"
        + "plugins.security.authcz.admin_dn: [\"CN=ranklab-launcher-no-admin\"]\n"
        + "plugins.security.allow_default_init_securityindex: true\n"
        + "plugins.security.audit.type: noop\n";
  }

  private static String pem(Certificate c) throws Exception {
    return "-----BEGIN CERTIFICATE-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(c.getEncoded())
        + "\n-----END CERTIFICATE-----\n";
  }

  /**
   * Waits until the security plugin answers: its configuration is loaded into the cluster a few
   * seconds after the node starts, and until then every request gets 503. Ready means a request
   * without credentials is refused with 401 (or, TLS only, answered).
   */
  private static void awaitSecurity(String url, Path ca, boolean auth) throws Exception {
    KeyStore ts = KeyStore.getInstance("PKCS12");
    ts.load(null, null);
    ts.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(Files.newInputStream(ca)));
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(ts);
    SSLContext ssl = SSLContext.getInstance("TLS");
    ssl.init(null, tmf.getTrustManagers(), null);
    HttpClient client = HttpClient.newBuilder().sslContext(ssl).connectTimeout(Duration.ofSeconds(5)).build();
    int want = auth ? 401 : 200, got = 0;
    for (long deadline = System.nanoTime() + 300_000_000_000L; System.nanoTime() < deadline; Thread.sleep(250)) {
      try {
        got = client.send(HttpRequest.newBuilder(URI.create(url + "/")).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.discarding()).statusCode();
        if (got == want) {
          return;
        }
      } catch (java.io.IOException e) {
        // not listening yet
      }
    }
    throw new IllegalStateException("the security plugin did not answer " + want + " within 5 minutes (last: " + got + ")");
  }

  /** Returns the first of n consecutive ports that were free a moment ago. */
  private static int consecutiveFreePorts(int n) throws Exception {
    for (int attempt = 0; attempt < 100; attempt++) {
      int base;
      try (ServerSocket s = new ServerSocket(0)) {
        base = s.getLocalPort();
      }
      if (base + n > 65535) {
        continue;
      }
      boolean free = true;
      for (int p = base + 1; p < base + n && free; p++) {
        try (ServerSocket s = new ServerSocket(p)) {
          // free
        } catch (Exception e) {
          free = false;
        }
      }
      if (free) {
        return base;
      }
    }
    throw new IllegalStateException("no " + n + " consecutive free ports");
  }

  private static boolean contains(int[] ports, int n, int p) {
    for (int i = 0; i < n; i++) {
      if (ports[i] == p) {
        return true;
      }
    }
    return false;
  }

  /** Returns a port that was free a moment ago, outside [from, from+n). */
  private static int freePort(int from, int n) throws Exception {
    while (true) {
      try (ServerSocket s = new ServerSocket(0)) {
        int p = s.getLocalPort();
        if (p < from || p >= from + n) {
          return p;
        }
      }
    }
  }
}
