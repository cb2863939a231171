/**
 * Sizes of the reliability suite. `ci` (the default, and what `npm test` runs) keeps the suite
 * around a minute; `full` (RELIABILITY_PROFILE=full npm run test:reliability) is for by-hand runs
 * before a release. Same assertions in both: only the volumes change.
 */
export type Profile = 'ci' | 'full';

export const profile: Profile = process.env.RELIABILITY_PROFILE === 'full' ? 'full' : 'ci';

const sizes = {
  ci: {
    /** concurrent appends in flight when the API server is killed */
    appendBurst: 200,
    /** writers doing read-version / append-with-expectedVersion loops, and writes each */
    versionedWriters: 6,
    versionedWrites: 15,
    /** signed call events in flight when the API server is killed */
    eventBurst: 100,
    /** post-call chains in flight when a worker is killed */
    workerChains: 20,
    /** requests of the noisy key in the overload test, and samples of the quiet key */
    overloadBurst: 400,
    quietSamples: 50,
    /** schemathesis examples per operation */
    schemathesisExamples: 5,
  },
  full: {
    appendBurst: 1000,
    versionedWriters: 12,
    versionedWrites: 40,
    eventBurst: 400,
    workerChains: 60,
    overloadBurst: 3000,
    quietSamples: 300,
    schemathesisExamples: 50,
  },
} as const;

export const size = sizes[profile];
