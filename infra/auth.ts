/**
 * Who may call the API. By default a Cognito user pool issues client-credential
 * tokens to one machine client, and signs people in to the console (hosted
 * login, authorization code with PKCE) with the admin scopes of their groups;
 * given an external OIDC issuer instead, the stack only verifies that issuer's
 * tokens, creates no Cognito resources, and sends the console to that issuer's
 * login when given the console's client there.
 */
import { createHash } from 'node:crypto';
import { Duration, Lazy, Names, Stack } from 'aws-cdk-lib';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import {
  AccountRecovery,
  FeaturePlan,
  LambdaVersion,
  OAuthScope,
  ResourceServerScope,
  UserPool,
  UserPoolClientIdentityProvider,
  UserPoolOperation,
  type UserPoolClient,
  type UserPoolDomain,
  type UserPoolGroup,
} from 'aws-cdk-lib/aws-cognito';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { ADMIN_SCOPES, SCOPE_GROUPS, type ScopeGroup } from '../lib/auth/group-scopes';
import type { ConsoleSignIn } from '../lib/config';
import { RESOURCE_SERVER_ID, SCOPE_NAMES } from '../lib/routes';

/** What the console asks a login for: an ID token (checked against the issuer) and both admin scopes, which the issuer narrows. */
export const CONSOLE_SCOPES = ['openid', ...ADMIN_SCOPES].join(' ');

/** The console's public OAuth client at an external issuer (authorization code with PKCE, no secret). */
export type ExternalConsoleClient = Omit<ConsoleSignIn, 'issuer'>;

export interface ExternalIssuer {
  /** The `iss` claim of accepted tokens, e.g. `https://login.example.com/`. */
  issuer: string;
  /** Accepted `aud` values (or `client_id` for tokens without `aud`). */
  audience: string[];
  /** The console's client at that issuer; without one the console takes a pasted token. */
  console?: ExternalConsoleClient;
}

export type ApiAuthProps =
  /** Verify tokens of this issuer instead of creating a Cognito user pool. */
  | { external: ExternalIssuer }
  /** The pool's pre-token-generation trigger (functions/accessTokenScopes.ts): a person's admin scopes from their groups. */
  | { accessTokenScopes: IFunction };

/** The Cognito resources, present only when the stack issues its own tokens. */
export interface CognitoTokenIssuer {
  userPool: UserPool;
  machineClient: UserPoolClient;
  /** The hosted login and the token endpoint. */
  domain: UserPoolDomain;
  /** Where the machine client trades its id and secret for a token (client credentials grant). */
  tokenUrl: string;
  /** The groups whose members get admin scopes (lib/auth/group-scopes.ts), by name. */
  groups: Record<ScopeGroup, UserPoolGroup>;
  /** The console's public client, once `signInConsole` made it. */
  consoleClient?: UserPoolClient;
}

export class ApiAuth extends Construct {
  readonly authorizer: HttpJwtAuthorizer;
  readonly issuer: string;
  readonly cognito?: CognitoTokenIssuer;
  private readonly external?: ExternalIssuer;
  /** The Cognito clients whose tokens the authorizer accepts: the machine client, and the console's once made. */
  private readonly cognitoAudience: string[] = [];
  private readonly scopes: { read: OAuthScope; write: OAuthScope } | undefined;
  private consoleSignedIn = false;

  constructor(scope: Construct, id: string, props: ApiAuthProps) {
    super(scope, id);
    if ('external' in props) {
      const { issuer, audience, console: consoleClient } = props.external;
      this.external = props.external;
      this.issuer = issuer;
      // The console's access tokens name its client (`aud`, or `client_id` where they carry no `aud`).
      const accepted = [...new Set([...audience, ...(consoleClient ? [consoleClient.clientId] : [])])];
      this.authorizer = new HttpJwtAuthorizer('JwtAuthorizer', this.issuer, { jwtAudience: accepted });
      return;
    }
    const { issuer: cognito, scopes } = this.createCognitoIssuer(props.accessTokenScopes);
    this.cognito = cognito;
    this.scopes = scopes;
    const { region, urlSuffix } = Stack.of(this);
    this.issuer = `https://cognito-idp.${region}.${urlSuffix}/${cognito.userPool.userPoolId}`;
    this.cognitoAudience.push(cognito.machineClient.userPoolClientId);
    // Cognito access tokens carry no `aud`; API Gateway then matches `client_id` against the audience. Read at synth,
    // so that it holds the console's client too, which is made once the API's URL (its callback) exists.
    this.authorizer = new HttpJwtAuthorizer('CognitoAuthorizer', this.issuer, {
      jwtAudience: Lazy.list({ produce: () => this.cognitoAudience }),
    });
  }

  /**
   * How the console page at `consoleUrl` signs people in: with Cognito, through a public client of the pool made
   * here (callback and logout to that page); with an external issuer, through the client given for it, or not at
   * all (undefined: a pasted token). Once per stack.
   */
  signInConsole(consoleUrl: string): ConsoleSignIn | undefined {
    if (this.consoleSignedIn) throw new Error('The console has one sign-in: signInConsole is called once');
    this.consoleSignedIn = true;
    if (this.external) return this.external.console ? { ...this.external.console, issuer: this.issuer } : undefined;
    const { userPool, domain } = this.cognito!;
    // A browser app holds no secret: a public client, authorization code only. Cognito has no setting that makes
    // PKCE mandatory: it checks a code_verifier at the token endpoint only for a code whose authorize request
    // carried a code_challenge (S256, the only method it takes), and redeems a code requested without one with none.
    // The console always sends one (console/src/sign-in.ts); what holds without it is that a code is returned only
    // to the registered console URL, is short-lived and redeemable once.
    const consoleClient = userPool.addClient('ConsoleClient', {
      generateSecret: false,
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [OAuthScope.OPENID, this.scopes!.read, this.scopes!.write],
        callbackUrls: [consoleUrl],
        logoutUrls: [consoleUrl],
      },
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      // Sign-in only through the hosted login: no SRP, password or custom sign-in by the user-pool API with this id.
      authFlows: { userSrp: false, userPassword: false, custom: false },
      preventUserExistenceErrors: true,
      // The console signs in again when its token expires; it keeps no refresh token (the shortest Cognito allows).
      accessTokenValidity: Duration.hours(1),
      idTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.hours(1),
    });
    this.cognito!.consoleClient = consoleClient;
    this.cognitoAudience.push(consoleClient.userPoolClientId);
    return {
      authorizeUrl: `${domain.baseUrl()}/oauth2/authorize`,
      tokenUrl: this.cognito!.tokenUrl,
      clientId: consoleClient.userPoolClientId,
      scopes: CONSOLE_SCOPES,
      logoutUrl: `${domain.baseUrl()}/logout`,
      issuer: this.issuer,
    };
  }

  private createCognitoIssuer(accessTokenScopes: IFunction) {
    // People are created by an operator only (no self sign-up) and signed in through the hosted login; a forgotten
    // password is reset by an operator too (no self-service recovery, whose e-mail would be a way in).
    const userPool = new UserPool(this, 'UserPool', {
      selfSignUpEnabled: false,
      accountRecovery: AccountRecovery.NONE,
      passwordPolicy: {
        minLength: 14,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(1),
      },
      // Essentials, the plan a new pool gets anyway, said here because the trigger below needs it: Lite customizes
      // ID tokens only, Essentials and Plus access tokens too. Essentials bills each monthly active person beyond
      // the account's free tier (at the time of writing 10,000 MAU a month free, then $0.015 per MAU, about three
      // times Lite's rate); a console's few administrators stay within the free tier.
      featurePlan: FeaturePlan.ESSENTIALS,
    });
    // V2_0: the event that customizes the access tokens of people; V3_0 would also rewrite the machine client's.
    userPool.addTrigger(UserPoolOperation.PRE_TOKEN_GENERATION_CONFIG, accessTokenScopes, LambdaVersion.V2_0);

    const readScope = new ResourceServerScope({ scopeName: SCOPE_NAMES.read, scopeDescription: 'Read everything' });
    const writeScope = new ResourceServerScope({ scopeName: SCOPE_NAMES.write, scopeDescription: 'Change data' });
    const resourceServer = userPool.addResourceServer('AdminResourceServer', {
      identifier: RESOURCE_SERVER_ID,
      scopes: [readScope, writeScope],
    });
    const scopes = {
      read: OAuthScope.resourceServer(resourceServer, readScope),
      write: OAuthScope.resourceServer(resourceServer, writeScope),
    };

    const machineClient = userPool.addClient('MachineClient', {
      generateSecret: true,
      oAuth: { flows: { clientCredentials: true }, scopes: [scopes.read, scopes.write] },
      accessTokenValidity: Duration.hours(1),
    });

    const groups = Object.fromEntries(
      Object.entries(SCOPE_GROUPS).map(([groupName, { description }]) => [
        groupName,
        userPool.addGroup(`${groupName[0].toUpperCase()}${groupName.slice(1)}Group`, { groupName, description }),
      ]),
    ) as Record<ScopeGroup, UserPoolGroup>;

    // One domain for both: the machine client's token endpoint and the console's hosted login.
    const domain = userPool.addDomain('TokenDomain', { cognitoDomain: { domainPrefix: this.domainPrefix() } });
    const issuer: CognitoTokenIssuer = { userPool, machineClient, domain, tokenUrl: `${domain.baseUrl()}/oauth2/token`, groups };
    return { issuer, scopes };
  }

  /**
   * Cognito domain prefixes are unique per region across all accounts. The
   * account id keeps accounts apart and a hash of this construct's path keeps
   * stacks of one account apart. Hex digits, not the readable path, because a
   * prefix may hold only [a-z0-9-] and must not contain "aws" or "cognito".
   * The account may be a token at synth time; CloudFormation resolves it.
   */
  private domainPrefix(): string {
    const pathHash = createHash('sha256').update(Names.uniqueId(this)).digest('hex').slice(0, 8);
    return `dept-admin-${pathHash}-${Stack.of(this).account}`;
  }
}
