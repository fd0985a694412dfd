import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { Service } from 'kubernetes-models/v1/Service';
import { CONTAINER_NODE_ARGS } from './support/server-process';

/**
 * `deploy/kubernetes/` against the Kubernetes schemas (kubernetes-models 4.5), and the properties the
 * operations guide promises. The manifests are JSON (valid YAML too), so no YAML parser is needed.
 */
const DIR = join(__dirname, '..', 'deploy', 'kubernetes');
const manifest = (file: string) => JSON.parse(readFileSync(join(DIR, file), 'utf8'));

describe('Kubernetes manifests', () => {
  const deployment = new Deployment(manifest('deployment.json'));
  const service = new Service(manifest('service.json'));
  const budget = new PodDisruptionBudget(manifest('poddisruptionbudget.json'));
  const autoscaler = new HorizontalPodAutoscaler(manifest('horizontalpodautoscaler.json'));
  const migrate = new Job(manifest('migrate-job.json'));
  const ingest = new Job(manifest('ingest-job.json'));
  const ingress = new Ingress(manifest('ingress.json'));
  const pod = deployment.spec!.template.spec!;
  const container = pod.containers[0];
  const podLabels = deployment.spec!.template.metadata!.labels!;

  it('are exactly these files, and each validates against its schema', () => {
    expect(
      readdirSync(DIR)
        .filter((file) => file.endsWith('.json'))
        .sort(),
    ).toEqual([
      'deployment.json',
      'horizontalpodautoscaler.json',
      'ingest-job.json',
      'ingress.json',
      'migrate-job.json',
      'poddisruptionbudget.json',
      'service.json',
    ]);
    for (const model of [deployment, service, budget, autoscaler, migrate, ingest, ingress]) {
      expect(() => model.validate()).not.toThrow();
    }
  });

  it('the validation catches a broken manifest', () => {
    const broken = manifest('deployment.json');
    broken.spec.replicas = 'two';
    expect(() => new Deployment(broken).validate()).toThrow();
  });

  it('runs at least two replicas with resources, rolling one pod at a time', () => {
    expect(deployment.spec!.replicas).toBeGreaterThanOrEqual(2);
    expect(deployment.spec!.strategy!.rollingUpdate).toEqual({ maxUnavailable: 0, maxSurge: 1 });
    expect(container.resources!.requests).toMatchObject({
      cpu: expect.any(String),
      memory: expect.any(String),
    });
    expect(container.resources!.limits!.memory).toBeDefined();
    expect(autoscaler.spec!.minReplicas).toBeGreaterThanOrEqual(2);
    expect(autoscaler.spec!.scaleTargetRef).toMatchObject({
      kind: 'Deployment',
      name: deployment.metadata!.name,
    });
  });

  it('takes a draining pod out of rotation within seconds, and waits longer than the drain to kill it', () => {
    const readiness = container.readinessProbe!;
    expect(readiness.httpGet).toMatchObject({ path: '/health', port: 'health' });
    // Unready after at most period × threshold seconds of 500s: inside a drain of a few seconds.
    expect(readiness.periodSeconds! * readiness.failureThreshold!).toBeLessThanOrEqual(5);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(20);
    // Every SIGTERM waits out the grace period and then the in-flight requests: the kill comes after both.
    const setting = (name: string) =>
      Number(container.env!.find((variable) => variable.name === name)!.value);
    const drainMs = setting('SHUTDOWN_GRACE_MS') + setting('SHUTDOWN_TIMEOUT_MS');
    expect(setting('SHUTDOWN_GRACE_MS')).toBeGreaterThanOrEqual(readiness.periodSeconds! * 1000);
    expect(pod.terminationGracePeriodSeconds! * 1000).toBeGreaterThan(drainMs);
  });

  it("runs the image's server with the V8 limits the memory tests and benchmarks use", () => {
    // CONTAINER_NODE_ARGS is the Dockerfile's CMD, parsed: the manifests must not override it.
    expect(CONTAINER_NODE_ARGS).toContainEqual(expect.stringMatching(/^--max-old-space-size=\d+$/));
    expect(container.command).toBeUndefined();
    expect(container.args).toBeUndefined();
  });

  it('does not restart pods because the database is down (liveness is not /health)', () => {
    const liveness = container.livenessProbe!;
    expect(liveness.httpGet).toBeUndefined();
    expect(liveness.tcpSocket).toEqual({ port: 'http' });
  });

  it('reads DATABASE_URL from a Secret, in the service and in both Jobs', () => {
    for (const spec of [pod, migrate.spec!.template.spec!, ingest.spec!.template.spec!]) {
      const env = spec.containers[0].env!.find((variable) => variable.name === 'DATABASE_URL')!;
      expect(env.value).toBeUndefined();
      expect(env.valueFrom!.secretKeyRef).toMatchObject({ name: 'catalog-api', key: 'database-url' });
    }
  });

  it('reads DATABASE_READ_URL from the Secret when its key is there, and runs without it', () => {
    const env = container.env!.find((variable) => variable.name === 'DATABASE_READ_URL')!;
    expect(env.valueFrom!.secretKeyRef).toEqual({
      name: 'catalog-api',
      key: 'database-read-url',
      optional: true,
    });
    expect(deployment.metadata!.annotations).toHaveProperty(['catalog-api/read-replicas']);
  });

  it('probes readiness on the health port 8081, apart from the API port’s connection queue', () => {
    expect(container.ports).toContainEqual(expect.objectContaining({ name: 'health', containerPort: 8081 }));
    expect(container.env).toContainEqual({ name: 'HEALTH_PORT', value: '8081' });
  });

  it('exposes and annotates the metrics port 9464 as `metrics`', () => {
    expect(container.ports).toContainEqual(expect.objectContaining({ name: 'metrics', containerPort: 9464 }));
    expect(container.env).toContainEqual({ name: 'METRICS_PORT', value: '9464' });
    expect(deployment.spec!.template.metadata!.annotations).toMatchObject({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': '9464',
    });
  });

  it('selects the Deployment’s pods from the Service and the PodDisruptionBudget', () => {
    for (const selector of [service.spec!.selector!, budget.spec!.selector!.matchLabels!]) {
      for (const [label, value] of Object.entries(selector)) expect(podLabels[label]).toBe(value);
    }
    expect(service.spec!.ports).toContainEqual(expect.objectContaining({ name: 'http', targetPort: 'http' }));
    expect(budget.spec!.minAvailable).toBe(1);
  });

  it('migrates and ingests with the CLI of the same image', () => {
    const image = container.image;
    expect(migrate.spec!.template.spec!.containers[0]).toMatchObject({
      image,
      command: ['node', 'dist/cli.js'],
      args: ['db:migrate'],
    });
    expect(ingest.spec!.template.spec!.containers[0]).toMatchObject({
      image,
      command: ['node', 'dist/cli.js'],
    });
    expect(ingest.spec!.template.spec!.containers[0].args![0]).toBe('catalog:ingest');
  });

  it('terminates TLS at the Ingress from a Secret, cert-manager shown, and routes only to the API port', () => {
    const tls = ingress.spec!.tls!;
    const rules = ingress.spec!.rules!;
    expect(tls).toHaveLength(1);
    expect(tls[0].secretName).toEqual(expect.any(String));
    // Every host of a rule is served with the TLS secret's certificate.
    for (const rule of rules) expect(tls[0].hosts).toContain(rule.host);
    expect(ingress.metadata!.annotations).toHaveProperty(['cert-manager.io/cluster-issuer']);
    const backends = rules.flatMap((rule) => rule.http!.paths.map((path) => path.backend.service!));
    for (const backend of backends) {
      expect(backend).toEqual({ name: service.metadata!.name, port: { name: 'http' } });
    }
  });

  it('believes the forwarded headers of one proxy (the ingress controller) and no more', () => {
    expect(container.env).toContainEqual({ name: 'TRUST_PROXY', value: '1' });
  });

  it('the Ingress validation catches a broken manifest', () => {
    const broken = manifest('ingress.json');
    broken.spec.tls[0].hosts = 'catalog.example.com';
    expect(() => new Ingress(broken).validate()).toThrow();
  });
});
