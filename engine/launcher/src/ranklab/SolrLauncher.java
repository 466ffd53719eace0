package ranklab;

import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Collection;
import org.apache.solr.client.solrj.embedded.SSLConfig;
import org.apache.solr.cloud.MiniSolrCloudCluster;

/**
 * Starts a SolrCloud of N nodes and an embedded ZooKeeper in this JVM (MiniSolrCloudCluster),
 * prints "ranklab-engine ready URL" on standard output and runs until standard input ends (the
 * parent died or closed it), SIGTERM or SIGINT (Stopper). Flags: --nodes N, --dir DIR (the nodes'
 * and ZooKeeper's files), --security FILE (a security.json, e.g. BasicAuthPlugin), --tls-cert
 * PEM --tls-key PEM (https: the certificate chain, its last certificate the CA, and the PKCS#8
 * private key; the nodes also trust that CA when they talk to each other).
 */
public final class SolrLauncher {
  public static void main(String[] args) {
    try {
      run(args);
    } catch (Throwable t) {
      Stopper.fail(t);
    }
  }

  private static void run(String[] args) throws Exception {
    int nodes = 1;
    Path dir = null;
    String security = null, cert = null, key = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--nodes" -> nodes = Integer.parseInt(args[++i]);
        case "--dir" -> dir = Paths.get(args[++i]);
        case "--security" -> security = Files.readString(Paths.get(args[++i]), StandardCharsets.UTF_8);
        case "--tls-cert" -> cert = args[++i];
        case "--tls-key" -> key = args[++i];
        default -> throw new IllegalArgumentException("unknown flag " + args[i]);
      }
    }
    if (dir == null) {
      throw new IllegalArgumentException("--dir is required");
    }
    Stopper.watch();
    // A node forwarding updates to another gives up when its queue has not moved for this long
    // (Solr's default, 15 s, fails a large indexing run on a loaded 2-core machine with "Request
    // processing has stalled"); a local cluster waits 5 minutes.
    if (System.getProperty("solr.cloud.client.stallTime") == null) {
      System.setProperty("solr.cloud.client.stallTime", "300000");
    }
    Files.createDirectories(dir);
    MiniSolrCloudCluster.Builder b = new MiniSolrCloudCluster.Builder(nodes, dir);
    SSLConfig ssl = null;
    if (cert != null) {
      ssl = stores(cert, key, dir);
      System.setProperty("jetty.testMode", "true"); // JettySolrRunner builds its TLS connector only in this mode
    }
    final SSLConfig sslConfig = ssl;
    b.withJettyConfig(j -> {
      j.setContext("/solr");
      if (sslConfig != null) {
        j.withSSLConfig(sslConfig);
      }
    });
    if (security != null) {
      b.withSecurityJson(security);
    }
    MiniSolrCloudCluster cluster = b.build();
    Stopper.onStop(() -> {
      try {
        cluster.shutdown();
      } catch (Exception e) {
        // halting anyway
      }
    });
    Stopper.ready(cluster.getJettySolrRunner(0).getBaseUrl().toString());
  }

  /** Writes a PKCS12 key store (the key and its chain) and a trust store (the chain's CA). */
  private static SSLConfig stores(String certPem, String keyPem, Path dir) throws Exception {
    Collection<? extends Certificate> chain = CertificateFactory.getInstance("X.509")
        .generateCertificates(new ByteArrayInputStream(Files.readAllBytes(Paths.get(certPem))));
    Certificate[] certs = chain.toArray(new Certificate[0]);
    byte[] der = pemBody(Files.readString(Paths.get(keyPem), StandardCharsets.US_ASCII));
    PrivateKey pk;
    try {
      pk = KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(der));
    } catch (Exception e) {
      pk = KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
    }
    String pw = "ranklab";
    KeyStore ks = KeyStore.getInstance("PKCS12");
    ks.load(null, null);
    ks.setKeyEntry("solr", pk, pw.toCharArray(), certs);
    KeyStore ts = KeyStore.getInstance("PKCS12");
    ts.load(null, null);
    ts.setCertificateEntry("ca", certs[certs.length - 1]);
    Path ksPath = dir.resolve("keystore.p12"), tsPath = dir.resolve("truststore.p12");
    try (OutputStream o = Files.newOutputStream(ksPath)) {
      ks.store(o, pw.toCharArray());
    }
    try (OutputStream o = Files.newOutputStream(tsPath)) {
      ts.store(o, pw.toCharArray());
    }
    System.setProperty("javax.net.ssl.trustStore", tsPath.toString());
    System.setProperty("javax.net.ssl.trustStorePassword", pw);
    System.setProperty("javax.net.ssl.trustStoreType", "PKCS12");
    System.setProperty("javax.net.ssl.keyStore", ksPath.toString());
    System.setProperty("javax.net.ssl.keyStorePassword", pw);
    System.setProperty("javax.net.ssl.keyStoreType", "PKCS12");
    return new SSLConfig(true, false, ksPath.toString(), pw, tsPath.toString(), pw);
  }

  private static byte[] pemBody(String pem) {
    StringBuilder b = new StringBuilder();
    for (String line : pem.split("\n")) {
      if (!line.startsWith("-----")) {
        b.append(line.trim());
      }
    }
    return Base64.getDecoder().decode(b.toString());
  }
}
