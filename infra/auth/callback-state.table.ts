/** callback_states_used: the nonce of every state a callback consumed, kept until the state expires. */
export interface CallbackStatesUsedTable {
  nonce: string;
  purpose: string;
  username_key: string;
  expires_at: Date;
}
