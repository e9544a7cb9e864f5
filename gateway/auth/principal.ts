/** Who is calling: the API key behind the request (directly or through a token) and what it may use. */
export interface Principal {
  keyId: string;
  org: string;
  plan: string;
}
