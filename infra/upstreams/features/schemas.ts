import { z } from 'zod';

/** The low-level descriptors the backfill asks for (`features=`): tempo and key. Absent ones stay absent. */
export const LowLevelDoc = z.looseObject({
  rhythm: z.looseObject({ bpm: z.number().optional() }).optional(),
  tonal: z.looseObject({ key_key: z.string().optional(), key_scale: z.string().optional() }).optional(),
});
export type LowLevelDoc = z.infer<typeof LowLevelDoc>;

/** One classifier of the high-level document: each class's probability, and the winner. */
const Classifier = z.looseObject({ all: z.record(z.string(), z.number()), value: z.string().optional(), probability: z.number().optional() });
export const HighLevelDoc = z.looseObject({ highlevel: z.record(z.string(), Classifier) });
export type HighLevelDoc = z.infer<typeof HighLevelDoc>;

/** What the features database holds on one recording (either document may be missing). */
export interface RecordingFeatures {
  lowlevel: LowLevelDoc | null;
  highlevel: HighLevelDoc | null;
}
