import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from './duration.js';
import { OptionError, optionsFromEnv } from './options.js';

describe('operator options', () => {
  it("default to Karpenter's batching windows and Tenon's timeouts", () => {
    const o = optionsFromEnv({});
    expect([o.batchIdleDuration, o.batchMaxDuration]).toEqual([1000, 10_000]);
    expect([o.launchTimeout, o.registrationTimeout, o.lingeringTaintAlert]).toEqual([300_000, 900_000, 300_000]);
    expect(o.nodeRepair).toBe(true);
    expect(o.nodeRepairUnhealthyThreshold).toBe(0.2);
  });

  it('read Karpenter-named variables, durations and feature gates', () => {
    const o = optionsFromEnv({
      CLUSTER_NAME: 'prod',
      BATCH_IDLE_DURATION: '500ms',
      REGISTRATION_TIMEOUT: '1h',
      FEATURE_GATES: 'SpotToSpotConsolidation=true',
      NODE_REPAIR_UNHEALTHY_THRESHOLD: '30%',
    });
    expect(o.clusterName).toBe('prod');
    expect(o.batchIdleDuration).toBe(500);
    expect(o.registrationTimeout).toBe(3_600_000);
    expect(o.featureGates.SpotToSpotConsolidation).toBe(true);
    expect(o.nodeRepairUnhealthyThreshold).toBeCloseTo(0.3);
    expect(optionsFromEnv({}).isolatedVPC).toBe(false);
    expect(optionsFromEnv({ ISOLATED_VPC: 'true' }).isolatedVPC).toBe(true);
    expect(optionsFromEnv({}).fakeCloudNodeLeases).toBe(true);
    expect(optionsFromEnv({ FAKE_CLOUD_NODE_LEASES: 'false' }).fakeCloudNodeLeases).toBe(false);
  });

  it('name the variable and the rule on bad input', () => {
    expect(() => optionsFromEnv({ BATCH_MAX_DURATION: 'ten seconds' })).toThrow(
      /BATCH_MAX_DURATION: invalid duration "ten seconds"/,
    );
    expect(() => optionsFromEnv({ FEATURE_GATES: 'Warp=true' })).toThrow(OptionError);
    expect(() => optionsFromEnv({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL: unsupported value "loud"/);
    expect(() => optionsFromEnv({ METRICS_PORT: '70000' })).toThrow(
      /METRICS_PORT: must be a port number from 0 to 65535, got "70000"/,
    );
    expect(() => optionsFromEnv({ HEALTH_PROBE_PORT: '80.5' })).toThrow(/HEALTH_PROBE_PORT: must be a port number/);
    expect(() => optionsFromEnv({ METRICS_PORT: '50%' })).toThrow(/METRICS_PORT: must be a port number/);
    expect(optionsFromEnv({ METRICS_PORT: '0', HEALTH_PROBE_PORT: '9443' })).toMatchObject({
      metricsPort: 0,
      healthProbePort: 9443,
    });
    expect(() => optionsFromEnv({ ISOLATED_VPC: 'yes' })).toThrow(/ISOLATED_VPC: must be true or false, got "yes"/);
  });

  it('parse and format Go durations', () => {
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('720h')).toBe(2_592_000_000);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(parseDuration('5')).toBeUndefined();
    expect(parseDuration('')).toBeUndefined();
    expect(formatDuration(5_400_000)).toBe('1h30m');
    expect(formatDuration(250)).toBe('250ms');
  });
});
