import type { FeatureType, LogKind } from '../features/types.js';
import type { ClassName } from '../parse/records.js';

/** An edge parent → child learned by the child's regression tree (SPEC §4). */
export interface DependencyEdge {
  /** Index into DependencyNetwork.variables. */
  readonly parent: number;
  readonly child: number;
  /** max over the child's split nodes on `parent` of (samples at that node / N_c), in (0, 1]. */
  readonly weight: number;
}

/** One dependency network: one log kind, one feature type, one class. */
export interface DependencyNetwork {
  readonly kind: LogKind;
  readonly feature: FeatureType;
  readonly className: ClassName | 'both';
  /** The variables that took part (columns missing in the whole class left out). */
  readonly variables: readonly string[];
  readonly edges: readonly DependencyEdge[];
  /** Instances used to learn it (after --dn-sample). */
  readonly instances: number;
  readonly minSplit: number;
}

export interface DependencyNetworkOptions {
  /** minSamplesSplit; default ⌈N_c/3⌉. */
  readonly minSplit?: number;
  /** Split gate: F-test p < splitAlpha / (number of candidate predictors). Default 0.05. */
  readonly splitAlpha: number;
  /** At most this many instances per class (seeded sample). Default 100 000. */
  readonly sample: number;
  readonly seed: number;
}
